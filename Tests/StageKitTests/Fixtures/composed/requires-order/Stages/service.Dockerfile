# summary: a service on the runtime, with certificates
# requires: runtime, certs
COPY service /srv/service
CMD ["/srv/service"]

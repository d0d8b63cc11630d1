# summary: a service on the runtime
# requires: runtime
RUN echo service

# Covers: arrays that are not valid JSON fall back to shell form (json=false, one value).
FROM alpine
CMD [ "a", b ]
CMD ["a",]
CMD ['single', 'quotes']
CMD ["unclosed"
CMD [ "a" ] trailing
CMD ["a"]["b"]
CMD {"a": 1}
CMD ["a" "b"]
CMD [
ENTRYPOINT [not json at all]
RUN [ "echo", 'mixed' ]
RUN ["echo", "\x41"]
VOLUME ["/broken", ]
SHELL [sh, -c]

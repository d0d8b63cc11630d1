# Covers: empty JSON arrays for every exec-form instruction.
FROM alpine
CMD []
ENTRYPOINT []
SHELL []
VOLUME []
RUN [  ]
COPY []
ADD --chown=a []
HEALTHCHECK CMD []

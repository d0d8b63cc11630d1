# Covers: instructions with no arguments at all, which the parser accepts.
FROM alpine
RUN
CMD
ENTRYPOINT
USER
WORKDIR
VOLUME
STOPSIGNAL
MAINTAINER
SHELL
ADD
COPY

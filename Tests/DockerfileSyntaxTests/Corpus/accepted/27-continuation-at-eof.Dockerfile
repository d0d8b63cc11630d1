# Covers: a continuation backslash on the last line of the file.
FROM alpine
RUN echo last \

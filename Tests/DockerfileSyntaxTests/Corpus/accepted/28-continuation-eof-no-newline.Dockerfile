# Covers: a continuation backslash on the last line with no newline after it.
FROM alpine
RUN echo last \
# escape=`
# Covers: a UTF-8 byte-order mark at file start is dropped, so the directive on line 1 still applies.
FROM alpine
RUN echo a `
    b

# Covers: two heredocs on one line where the second never ends.
FROM alpine
RUN <<A cat && <<B cat
a
A
b

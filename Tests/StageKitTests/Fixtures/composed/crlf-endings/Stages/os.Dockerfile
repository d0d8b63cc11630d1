# summary: a base written on Windows: CRLF, no final newline
FROM alpine:3.20
RUN <<EOF
echo one
echo two
EOF
RUN echo last
# Covers: a heredoc whose terminator is the last line, without a trailing newline.
FROM alpine
RUN <<EOF
body
EOF
# Covers: a heredoc whose terminator never comes.
FROM alpine
RUN <<EOF
echo never ends

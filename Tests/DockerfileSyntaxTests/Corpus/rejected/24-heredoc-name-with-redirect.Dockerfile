# Covers: <<EOF>out is one word, so the heredoc name is 'EOF>out' and 'EOF' does not end it.
FROM alpine
RUN cat <<EOF>out
body
EOF

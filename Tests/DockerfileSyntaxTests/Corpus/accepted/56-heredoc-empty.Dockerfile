# Covers: empty heredoc bodies.
FROM alpine
RUN <<EOF
EOF
COPY <<EOF /empty
EOF
RUN <<A <<B cat
A
B

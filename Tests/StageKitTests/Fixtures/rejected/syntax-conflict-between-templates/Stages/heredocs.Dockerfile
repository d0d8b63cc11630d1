# syntax=docker/dockerfile:1.4
# summary: asks for the 1.4 frontend
RUN <<EOF
echo hi
EOF

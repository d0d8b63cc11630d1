# Covers: RUN with a <<EOF heredoc; the body is kept byte for byte, the instruction ends at the terminator.
FROM alpine
RUN <<EOF
set -eux
echo "hello $USER"
  indented line

EOF
RUN <<EOF bash
echo with interpreter
EOF
RUN python3 <<EOF
print("hi")
EOF
RUN cat <<EOF > /etc/motd
Welcome
EOF
RUN <<END_OF_SCRIPT
underscored name
END_OF_SCRIPT

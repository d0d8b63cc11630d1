# Covers: heredocs with a file-descriptor prefix (3<<EOF); the fd is reported, 0 by default.
FROM alpine
RUN 3<<EOF cat <&3
fd three
EOF
RUN 0<<EOF cat
fd zero
EOF
RUN cat 10<<-EOF <&10
	fd ten
	EOF
RUN <<EOF 4<<EOT cat - /dev/fd/4
stdin
EOF
fd four
EOT

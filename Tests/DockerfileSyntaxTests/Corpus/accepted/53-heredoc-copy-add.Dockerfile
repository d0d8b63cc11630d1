# Covers: heredocs in COPY and ADD with a target path and flags.
FROM alpine
COPY <<EOF /app/config.ini
[section]
key = value
EOF
COPY --chmod=755 <<EOF /usr/local/bin/run.sh
#!/bin/sh
exec "$@"
EOF
ADD <<EOF /etc/hosts.extra
127.0.0.1 local
EOF
COPY --link <<-EOF /x
	tabbed
	EOF
COPY <<EOF /a/b.txt
EOF

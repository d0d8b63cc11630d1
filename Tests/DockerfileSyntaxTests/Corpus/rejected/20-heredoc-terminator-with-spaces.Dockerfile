# Covers: <<-EOF strips tabs, not spaces, before the terminator.
FROM alpine
RUN <<-EOF
	echo body
    EOF

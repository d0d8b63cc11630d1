# Covers: <<-EOF: tab-indented body and terminator; the parser strips tabs only to find the terminator.
FROM alpine
RUN <<-EOF
	echo tab-indented
		echo two tabs
    echo spaces are not stripped
	EOF
RUN cat <<-"EOT"
	$NOT_EXPANDED
			EOT
COPY <<-EOF /x
	content
EOF
RUN <<EOF
	EOF
EOF

# Covers: a tab-indented terminator only ends a <<-EOF heredoc, so this one never ends.
FROM alpine
RUN <<EOF
echo body
	EOF

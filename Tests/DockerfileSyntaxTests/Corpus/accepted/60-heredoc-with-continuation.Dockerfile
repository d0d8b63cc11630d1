# Covers: heredoc markers found after continued lines are joined; flags before a heredoc.
FROM alpine
RUN \
  <<EOF cat
x
EOF
RUN <<EOF \
  && echo joined
body
EOF
RUN --mount=type=cache,target=/c <<EOF
cached
EOF
RUN --network=none \
    <<-EOF \
    sh
	continued
	EOF

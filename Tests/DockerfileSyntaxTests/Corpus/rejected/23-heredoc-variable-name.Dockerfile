# Covers: a heredoc name made of a variable is taken literally ($X), so 'X' never ends it.
FROM alpine
RUN <<$X
body
X

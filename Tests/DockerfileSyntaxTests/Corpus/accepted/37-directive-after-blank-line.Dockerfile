
# escape=`
# Covers: a blank first line ends the directive section, so the escape line is only a comment.
FROM alpine
RUN echo a `
RUN echo b \
    c

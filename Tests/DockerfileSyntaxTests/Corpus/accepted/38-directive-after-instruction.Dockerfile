FROM alpine
# Covers: a directive-shaped comment after an instruction is only a comment.
# escape=`
RUN echo a `
RUN echo b \
    c

# Covers: a directive after an ordinary comment is just a comment (the escape stays backslash).
# escape=`
FROM alpine
RUN echo a `
RUN echo b \
    c

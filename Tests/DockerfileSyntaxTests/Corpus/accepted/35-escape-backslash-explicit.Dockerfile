# escape=\
# Covers: the escape directive set explicitly to the default backslash.
FROM alpine
RUN echo a \
    b
RUN echo c `

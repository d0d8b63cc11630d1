# syntax=docker/dockerfile:1.7
# escape=\
# Covers: syntax and escape directives together; neither becomes an instruction.
FROM alpine
RUN echo a \
    b

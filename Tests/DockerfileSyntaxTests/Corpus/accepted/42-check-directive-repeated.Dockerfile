# syntax=docker/dockerfile:1
# check=skip=all
# check=error=true
# escape=`
# Covers: a repeated check line is accepted in this version (it is not a directive); the escape after it is ignored.
FROM alpine
RUN echo a \
    b

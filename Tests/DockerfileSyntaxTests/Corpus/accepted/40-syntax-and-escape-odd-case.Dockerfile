#syntax = docker/dockerfile:1
# ESCAPE=`
# Covers: directives in any letter case and spacing, one after the other.
FROM alpine
RUN echo a `
  b

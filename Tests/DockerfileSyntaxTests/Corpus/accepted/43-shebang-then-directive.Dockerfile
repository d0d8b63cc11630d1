#!/usr/bin/env docker-build
# escape=`
# Covers: a first comment that is not a directive (a shebang) ends the directive section.
FROM alpine
RUN echo a `
RUN echo b

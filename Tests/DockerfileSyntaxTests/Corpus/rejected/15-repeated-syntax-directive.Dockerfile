# syntax=docker/dockerfile:1
# syntax=docker/dockerfile:1.7
# Covers: the syntax directive may appear only once.
FROM alpine

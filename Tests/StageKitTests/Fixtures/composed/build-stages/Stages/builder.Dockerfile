# summary: Go toolchain
# param GOFLAGS: flags for every go command
FROM golang:1.22-bookworm
ARG GOFLAGS=-trimpath
ENV GOFLAGS=${GOFLAGS}

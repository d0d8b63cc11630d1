# summary: Go toolchain
FROM golang:1.22-bookworm

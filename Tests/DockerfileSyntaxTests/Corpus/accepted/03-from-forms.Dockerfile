# Covers: FROM with --platform, AS alias in any case, digests, registries with ports, variables, scratch.
ARG BASE=alpine
ARG TAG=3.19
FROM --platform=$BUILDPLATFORM golang:1.22 AS build
FROM --platform=linux/amd64 ${BASE}:${TAG} as runtime
FROM ubuntu@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
FROM scratch AS Final
FROM build
FROM   --platform=linux/arm64/v8   debian:bookworm-slim   AS   spaced
FROM registry.example.com:5000/team/app:1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef AS pinned
FROM a b c d
FROM

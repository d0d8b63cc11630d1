# syntax=docker/dockerfile:1.7
# summary: asks for the 1.7 frontend
FROM alpine:3.20

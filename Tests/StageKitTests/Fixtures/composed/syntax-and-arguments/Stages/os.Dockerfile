# syntax=docker/dockerfile:1.7
# summary: Debian slim, built with the 1.7 frontend
FROM --platform=linux/amd64 debian:bookworm-slim

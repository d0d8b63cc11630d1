# summary: Debian slim
FROM debian:bookworm-slim

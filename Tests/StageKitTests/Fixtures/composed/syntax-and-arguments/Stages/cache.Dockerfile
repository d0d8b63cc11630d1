# syntax=docker/dockerfile:1.7
# summary: apt with a cache mount
RUN --mount=type=cache,target=/var/cache/apt \
    apt-get update

# Covers: HEALTHCHECK NONE and CMD with options, in exec and shell forms, continued, lowercase keywords.
FROM alpine
HEALTHCHECK NONE
HEALTHCHECK none
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --start-interval=1s --retries=3 CMD curl -f http://localhost/ || exit 1
HEALTHCHECK CMD ["curl", "-f", "http://localhost/"]
HEALTHCHECK --interval=5m \
  CMD wget -qO- localhost:8080/health
HEALTHCHECK cmd echo lowercase cmd keyword
HEALTHCHECK --retries=1 CMD [ "bad", json ]
HEALTHCHECK CMD-SHELL echo not a keyword
HEALTHCHECK

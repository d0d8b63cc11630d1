# Covers: ENV where a quote opens a new word without '='.
FROM alpine
ENV A=b "c d"

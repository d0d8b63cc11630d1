# Covers: a nested JSON array in RUN.
FROM alpine
RUN [["sh"], "-c"]

# Covers: a JSON array with a string and a number.
FROM alpine
ENTRYPOINT ["app", 8080]

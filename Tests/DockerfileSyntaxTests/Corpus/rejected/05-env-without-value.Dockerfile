# Covers: ENV with a name and no value (legacy form needs two arguments).
FROM alpine
ENV ONLY_NAME

# Covers: a non-string JSON array spread over continued lines.
FROM alpine
CMD ["a", \
     2]

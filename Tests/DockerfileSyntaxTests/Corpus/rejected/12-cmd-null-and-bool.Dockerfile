# Covers: JSON null and booleans in an exec-form array.
FROM alpine
CMD ["a", null, true]

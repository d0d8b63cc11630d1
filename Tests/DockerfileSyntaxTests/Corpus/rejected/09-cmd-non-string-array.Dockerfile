# Covers: a JSON array with non-string elements is an error, not a fallback to shell form.
FROM alpine
CMD [1, 2]

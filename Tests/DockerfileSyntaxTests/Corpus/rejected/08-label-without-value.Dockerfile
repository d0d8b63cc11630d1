# Covers: LABEL with a single word and no '='.
FROM alpine
LABEL lonely

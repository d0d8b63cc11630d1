# escape=` x
# Covers: the directive value is everything after '=', trimmed; here it is two characters.
FROM alpine

# escape=x
# Covers: only backslash and backtick are valid escape characters.
FROM alpine

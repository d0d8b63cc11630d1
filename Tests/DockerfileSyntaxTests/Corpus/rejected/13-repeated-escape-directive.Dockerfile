# escape=\
# escape=`
# Covers: the escape directive may appear only once.
FROM alpine

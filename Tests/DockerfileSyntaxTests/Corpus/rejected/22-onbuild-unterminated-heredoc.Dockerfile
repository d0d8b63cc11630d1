# Covers: BuildKit reads heredocs inside ONBUILD, so an unterminated one is an error there too.
FROM alpine
ONBUILD RUN <<EOF
echo never ends

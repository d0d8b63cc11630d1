# Covers: LABEL with quotes, escapes, several pairs, dotted and quoted keys, continued lines, legacy space form.
FROM alpine
LABEL version="1.0"
LABEL org.opencontainers.image.title="stage build" org.opencontainers.image.licenses=MIT
LABEL "quoted.key"="quoted value" 'single'='single value'
LABEL description="A long \
description over \
lines"
LABEL a=b c=d \
      e=f
LABEL legacy space form
LABEL empty=""
LABEL escaped="a \"quote\" and a \\ backslash"
LABEL multi.word="x y" tail=z

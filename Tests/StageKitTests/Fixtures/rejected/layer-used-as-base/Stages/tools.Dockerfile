# summary: build tools
RUN apk add --no-cache make=4.4.1-r2

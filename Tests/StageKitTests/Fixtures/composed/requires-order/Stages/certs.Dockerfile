# summary: CA certificates
RUN apk add --no-cache ca-certificates=20240705-r0

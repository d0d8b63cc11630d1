# summary: Alpine base
FROM alpine:3.20

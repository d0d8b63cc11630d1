# summary: Alpine base of the fixture catalog
FROM alpine:3.20

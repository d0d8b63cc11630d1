# Covers: ENV that mixes K=V pairs with a bare word.
FROM alpine
ENV A=1 B

# Covers: ENV shapes the parser accepts although the builder would refuse some: empty name, empty value, doubled '='.
FROM alpine
ENV =x
ENV ="quoted"
ENV A=
ENV A==b
ENV A="unterminated
ENV A= B=

# A continuation line that holds only white space (a vertical tab, a form feed) is skipped,
# as a blank one is: the flag word runs on into the next line.
FROM alpine AS build
FROM alpine
COPY 	--from=build\


--chown=1:1 --chmod=644 \
x /y

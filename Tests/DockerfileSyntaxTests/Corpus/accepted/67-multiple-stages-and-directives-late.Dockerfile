# syntax=docker/dockerfile:1
# Covers: several build stages; a late '# syntax=' and '# escape=' are plain comments.
FROM alpine AS one
# syntax=other
# escape=`
RUN echo one \
    continued
FROM one AS two
COPY --from=one / /
FROM scratch
COPY --from=two / /

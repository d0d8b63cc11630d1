# check=skip=JSONArgsRecommended;error=true
# escape=`
# Covers: BuildKit v0.12.5 does not know 'check': it is a comment that ends the directive section, so the escape line is ignored.
FROM alpine
RUN echo a `
RUN echo b \
    c

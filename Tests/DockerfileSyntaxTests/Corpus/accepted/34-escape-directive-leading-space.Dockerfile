   #   escape   =   `   
# Covers: whitespace before '#', around the name and after the value of a directive is allowed.
FROM alpine
RUN echo a `
    b

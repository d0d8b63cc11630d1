#ESCAPE = `
# Covers: a directive name in upper case with spaces around '=' still sets the escape to backtick.
FROM alpine
RUN echo a `
    b
RUN echo c \
RUN echo d

# Covers: a file whose last line has no newline.
FROM alpine
RUN echo end
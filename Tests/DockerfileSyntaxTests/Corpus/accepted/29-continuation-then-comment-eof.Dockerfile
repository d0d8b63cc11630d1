# Covers: a continued instruction whose following lines are only comments and blank lines up to end of file.
FROM alpine
RUN echo end \
# a comment


# summary: prints a greeting
# param GREETING: the text
ARG GREETING=hello
RUN echo "${GREETING}"

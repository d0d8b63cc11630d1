# summary: a metrics endpoint
# param PORT: port of the metrics endpoint
ARG PORT
RUN echo "metrics on ${PORT}"

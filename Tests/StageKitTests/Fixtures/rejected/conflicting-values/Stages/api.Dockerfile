# summary: an API server
# param PORT: port of the API
ARG PORT=8080
EXPOSE ${PORT}

# summary: a web server
# param PORT: port to listen on (required)
# param ROOT: document root
ARG PORT
ARG ROOT=/srv/www
EXPOSE ${PORT}

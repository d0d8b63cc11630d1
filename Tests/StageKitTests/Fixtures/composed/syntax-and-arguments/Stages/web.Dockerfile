# summary: a static web server
# param PORT: port to listen on
# param ROOT: document root
# param GREETING: text of the index page
# param MODE: file mode of the page
# param OWNER: owner of the page
ARG PORT=8080
ARG ROOT=/srv/www
RUN mkdir -p "${ROOT}"

# The page; its text comes from a parameter.
ARG GREETING="hello, world"
ARG MODE=0644 OWNER=www-data
RUN printf '%s\n' "${GREETING}" > "${ROOT}/index.html" \
    && chmod "${MODE}" "${ROOT}/index.html" \
    && chown "${OWNER}" "${ROOT}/index.html"
EXPOSE ${PORT}

# Covers: EXPOSE, USER and WORKDIR shapes.
FROM alpine
EXPOSE 80
EXPOSE 80/tcp 443/tcp 53/udp
EXPOSE 8000-8010 ${PORT}
EXPOSE
USER app
USER 1000:1000
USER ${UID}:${GID}
USER   spaced user  
WORKDIR /app
WORKDIR relative/dir
WORKDIR "/path with spaces"
WORKDIR ${HOME}/src
WORKDIR /a   /b

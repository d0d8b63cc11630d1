# summary: Debian's nginx as a reverse proxy that forwards / to one upstream HTTP server
# param SERVER_NAME: nginx server_name of the site (_ matches any host)
# param LISTEN_PORT: port nginx listens on
# param UPSTREAM_HOST: host name or address of the upstream app
# param UPSTREAM_PORT: port of the upstream app
ARG SERVER_NAME=_
ARG LISTEN_PORT=80
ARG UPSTREAM_HOST=127.0.0.1
ARG UPSTREAM_PORT=3000

# nginx and nginx-common are one source package: both are pinned to the same
# bookworm version. The default site goes; logs go to the container's stdout/stderr.
# apt's and dpkg's logs and caches hold dates and inode numbers: they go too, so the
# layer depends only on the packages.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        nginx=1.22.1-9+deb12u11 \
        nginx-common=1.22.1-9+deb12u11 \
    && rm -rf /var/lib/apt/lists/* \
    && rm -f /var/log/dpkg.log /var/log/apt/history.log /var/log/apt/term.log /var/log/alternatives.log \
        /var/cache/apt/pkgcache.bin /var/cache/apt/srcpkgcache.bin /var/cache/ldconfig/aux-cache \
        /var/cache/debconf/config.dat-old /var/cache/debconf/templates.dat-old \
    && rm -f /etc/nginx/sites-enabled/default \
    && ln -sf /dev/stdout /var/log/nginx/access.log \
    && ln -sf /dev/stderr /var/log/nginx/error.log

# The site and the health check are written by printf, one argument a line: Debian 12's
# own buildah and podman cannot read COPY <<EOF heredocs. The parameters are expanded by
# the shell in double-quoted lines and never read as printf formats; nginx's own
# variables stay in single-quoted lines, unexpanded.
# The health check asks nginx itself (not the upstream) over bash's /dev/tcp, so the
# image needs no curl; nginx accepts the bare LF line ends of its request.
# hadolint ignore=SC2016
RUN set -eu; \
    printf '%s\n' \
        'server {' \
        "    listen ${LISTEN_PORT};" \
        "    server_name ${SERVER_NAME};" \
        '' \
        '    location = /nginx-health {' \
        '        access_log off;' \
        '        return 204;' \
        '    }' \
        '' \
        '    location / {' \
        "        proxy_pass http://${UPSTREAM_HOST}:${UPSTREAM_PORT};" \
        '        proxy_set_header Host $host;' \
        '        proxy_set_header X-Real-IP $remote_addr;' \
        '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;' \
        '        proxy_set_header X-NginX-Proxy true;' \
        '    }' \
        '}' \
        > /etc/nginx/conf.d/reverse-proxy.conf; \
    printf '%s\n' \
        '#!/bin/bash' \
        'set -euo pipefail' \
        "exec 3<>/dev/tcp/127.0.0.1/${LISTEN_PORT}" \
        "printf '%s' 'GET /nginx-health HTTP/1.0" \
        'Host: localhost' \
        '' \
        "' >&3" \
        'IFS= read -r -t 4 status_line <&3' \
        'case "$status_line" in' \
        '    "HTTP/1.1 204"*) exit 0 ;;' \
        '    *) exit 1 ;;' \
        'esac' \
        > /usr/local/bin/nginx-healthcheck; \
    chmod 0644 /etc/nginx/conf.d/reverse-proxy.conf; \
    chmod 0755 /usr/local/bin/nginx-healthcheck

EXPOSE ${LISTEN_PORT}
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/nginx-healthcheck"]

STOPSIGNAL SIGQUIT
# No USER line: the nginx master process must start as root to bind port 80 and
# to open its logs; it drops its workers to www-data (user www-data in nginx.conf).
# stagebuild ignore=SB012 nginx's master process needs root; its workers run as www-data
CMD ["nginx", "-g", "daemon off;"]

# summary: Debian's Node.js 18 runtime and the unprivileged system user node
# param NODE_ENV: value of NODE_ENV in the image (production, or e.g. staging)
ARG NODE_ENV=production
# BuildKit's built-in build argument: useradd dates the account in /etc/shadow from it.
ARG SOURCE_DATE_EPOCH

# nodejs and libnode108 are one source package: both are pinned to the same
# bookworm version. Debian's Node.js reads the system CA store, hence ca-certificates.
# apt's and dpkg's logs and caches hold dates and inode numbers: they go, so the layer
# depends only on the packages.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates=20250419~deb12u2 \
        libnode108=18.20.4+dfsg-1~deb12u3 \
        nodejs=18.20.4+dfsg-1~deb12u3 \
    && rm -rf /var/lib/apt/lists/* \
    && rm -f /var/log/dpkg.log /var/log/apt/history.log /var/log/apt/term.log /var/log/alternatives.log \
        /var/cache/apt/pkgcache.bin /var/cache/apt/srcpkgcache.bin /var/cache/ldconfig/aux-cache \
        /var/cache/debconf/config.dat-old /var/cache/debconf/templates.dat-old

# System user and group "node": home /home/node, locked password, no login shell.
RUN groupadd --system node \
    && useradd --system --gid node --home-dir /home/node --create-home \
        --shell /usr/sbin/nologin --comment "Node.js service" node

ENV NODE_ENV=${NODE_ENV}

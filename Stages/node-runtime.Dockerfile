# summary: Debian's Node.js 18 runtime and the unprivileged system user node
# param NODE_ENV: value of NODE_ENV in the image (production, or e.g. staging)
ARG NODE_ENV=production

# nodejs and libnode108 are one source package: both are pinned to the same
# bookworm version. Debian's Node.js reads the system CA store, hence ca-certificates.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates=20250419~deb12u2 \
        libnode108=18.20.4+dfsg-1~deb12u3 \
        nodejs=18.20.4+dfsg-1~deb12u3 \
    && rm -rf /var/lib/apt/lists/*

# System user and group "node": home /home/node, locked password, no login shell.
RUN groupadd --system node \
    && useradd --system --gid node --home-dir /home/node --create-home \
        --shell /usr/sbin/nologin --comment "Node.js service" node

ENV NODE_ENV=${NODE_ENV}

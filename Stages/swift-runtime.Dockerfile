# summary: Run-time libraries for a Swift program built with --static-swift-stdlib (libcurl, OpenSSL, RE2, libpacparser, libarchive, CA certificates) and a non-root user
# param SERVICE_USER: name of the unprivileged system user and group that runs the program
ARG SERVICE_USER=app
# BuildKit's built-in build argument: useradd dates the account in /etc/shadow from it.
ARG SOURCE_DATE_EPOCH

# --static-swift-stdlib links Swift and Foundation in; the C libraries stay shared:
# libcurl (FoundationNetworking, curl's own API), OpenSSL's libcrypto, RE2 (for a
# program with a target over libre2, as stagebuild's patterns), libpacparser (proxy
# auto-config scripts, shipped as a shared library only), libarchive (tar streams, the
# image layers stagebuild verify reads), and libstdc++,
# libgcc_s, libc and zlib, which every Debian base already has (apt needs them).
# ca-certificates backs TLS chain validation. Add tzdata for a program that uses
# TimeZone, libxml2 for one that imports FoundationXML.
# apt's and dpkg's logs and caches hold dates and inode numbers: they go, so the layer
# depends only on the packages.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates=20250419~deb12u2 \
        libarchive13=3.6.2-1+deb12u5 \
        libcurl4=7.88.1-10+deb12u15 \
        libpacparser1=1.3.6-1.4 \
        libre2-9=20220601+dfsg-1+b1 \
        libssl3=3.0.22-1~deb12u2 \
    && rm -rf /var/lib/apt/lists/* \
    && rm -f /var/log/dpkg.log /var/log/apt/history.log /var/log/apt/term.log /var/log/alternatives.log \
        /var/cache/apt/pkgcache.bin /var/cache/apt/srcpkgcache.bin /var/cache/ldconfig/aux-cache \
        /var/cache/debconf/config.dat-old /var/cache/debconf/templates.dat-old

RUN groupadd --system "${SERVICE_USER}" \
    && useradd --system --gid "${SERVICE_USER}" --home-dir "/home/${SERVICE_USER}" --create-home \
        --shell /usr/sbin/nologin "${SERVICE_USER}"

# The Stagefile copies the program in after this template and names it in an exec-form
# ENTRYPOINT (an exec form cannot name a parameter), e.g. ENTRYPOINT ["myapp"] for
# /usr/local/bin/myapp: the program runs as PID 1 and gets the signals.
USER ${SERVICE_USER}
WORKDIR /home/${SERVICE_USER}

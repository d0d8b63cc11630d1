# summary: Swift 6.3.1 toolchain on Debian 12 (bookworm), libcurl, OpenSSL and RE2 headers; builds the package in the build context into /out/bin
# param DEBIAN_SNAPSHOT: snapshot.debian.org timestamp such as 20250520T000000Z; empty uses the live Debian archive
# param SOURCE_DIR: where the build context is copied and built
# param SWIFT_BUILD_FLAGS: arguments of swift build
# apt-archive: debian release=bookworm snapshot=${DEBIAN_SNAPSHOT}
# stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock pins digests; a build stage, only its binaries ship
FROM swift:6.3.1-bookworm
ARG DEBIAN_SNAPSHOT=
ARG SOURCE_DIR=/src
ARG SWIFT_BUILD_FLAGS="-c release --static-swift-stdlib"
# BuildKit's built-in build argument: the build steps see it (reproducible-builds.org).
ARG SOURCE_DATE_EPOCH

# Same apt snapshot switch as the debian template (the swift image is Debian 12 too).
RUN set -eux; \
    if [ -n "${DEBIAN_SNAPSHOT}" ]; then \
        printf '%s\n' \
            'Types: deb' \
            "URIs: http://snapshot.debian.org/archive/debian/${DEBIAN_SNAPSHOT}" \
            'Suites: bookworm bookworm-updates' \
            'Components: main' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
            '' \
            'Types: deb' \
            "URIs: http://snapshot.debian.org/archive/debian-security/${DEBIAN_SNAPSHOT}" \
            'Suites: bookworm-security' \
            'Components: main' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
            > /etc/apt/sources.list.d/debian.sources; \
        printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'Acquire::Retries "3";' > /etc/apt/apt.conf.d/80snapshot; \
    fi

# Headers of the C libraries system-library targets link: libcurl (FoundationNetworking
# and curl's own API), OpenSSL's libcrypto, RE2 (linear-time regular expressions),
# libyaml (config files), liblzma (the Debian archive's Packages.xz indexes),
# Jansson (strict JSON: lockfiles, registry answers, auth files), libpacparser (proxy
# auto-config scripts) and libarchive (image layers, for stagebuild verify).
# Each library is pinned with its -dev package, which requires exactly its own version.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libarchive-dev=3.6.2-1+deb12u5 \
        libarchive13=3.6.2-1+deb12u5 \
        libcurl4=7.88.1-10+deb12u15 \
        libcurl4-openssl-dev=7.88.1-10+deb12u15 \
        libjansson-dev=2.14-2 \
        libjansson4=2.14-2 \
        liblzma-dev=5.4.1-1+deb12u2 \
        liblzma5=5.4.1-1+deb12u2 \
        libpacparser-dev=1.3.6-1.4 \
        libpacparser1=1.3.6-1.4 \
        libre2-9=20220601+dfsg-1+b1 \
        libre2-dev=20220601+dfsg-1+b1 \
        libssl-dev=3.0.22-1~deb12u2 \
        libssl3=3.0.22-1~deb12u2 \
        libyaml-0-2=0.2.5-1 \
        libyaml-dev=0.2.5-1 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR ${SOURCE_DIR}
COPY . .

# Every executable product lands in /out/bin, for COPY --from=<alias> /out/bin/NAME.
# SWIFT_BUILD_FLAGS is unquoted on purpose: it holds several arguments.
# hadolint ignore=SC2086
RUN set -eux; \
    swift build ${SWIFT_BUILD_FLAGS}; \
    bin_path="$(swift build ${SWIFT_BUILD_FLAGS} --show-bin-path)"; \
    install -d /out/bin; \
    find "${bin_path}" -maxdepth 1 -type f -perm -u+x -exec install -m 0755 -t /out/bin {} +

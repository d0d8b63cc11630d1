# summary: Debian 12 (bookworm) slim base; apt can be pinned to one snapshot.debian.org date
# param DEBIAN_SNAPSHOT: snapshot.debian.org timestamp such as 20250520T000000Z; empty uses the live Debian archive
# stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock pins digests; the templates layered on it set USER
FROM debian:bookworm-slim
ARG DEBIAN_SNAPSHOT=

# With a snapshot, apt reads the archive as it was at that moment, so the exact
# package versions pinned by later steps keep resolving after Debian moves on.
# Snapshot Release files are past their Valid-Until date: that check is disabled.
# No heredocs in this catalog's RUN steps: Debian 12's own buildah and podman cannot read them.
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

# summary: Debian slim base (12 bookworm by default); apt can be pinned to one snapshot.debian.org date
# param DEBIAN_RELEASE: the release's code name (bookworm, trixie), which is also the image's tag: debian:RELEASE-slim
# param DEBIAN_SNAPSHOT: snapshot.debian.org timestamp such as 20250520T000000Z; empty uses the live Debian archive (stagebuild lock --snapshot records one, and compose writes it here)
# param DEBIAN_SNAPSHOT_URL: the snapshot service's base URL: snapshot.debian.org, or a mirror of its layout
# apt-archive: debian release=${DEBIAN_RELEASE} snapshot=${DEBIAN_SNAPSHOT} snapshot-url=${DEBIAN_SNAPSHOT_URL}
ARG DEBIAN_RELEASE=bookworm
# stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock pins digests; the templates layered on it set USER
FROM debian:${DEBIAN_RELEASE}-slim
ARG DEBIAN_RELEASE
ARG DEBIAN_SNAPSHOT=
ARG DEBIAN_SNAPSHOT_URL=http://snapshot.debian.org

# With a snapshot, apt reads the archive as it was at that moment, so the exact
# package versions pinned by later steps keep resolving after Debian moves on.
# `stagebuild lock` resolves every apt-get install NAME=VERSION of the build stage
# against this same archive state (the template's apt-archive line: these URLs, or the
# live suites without a snapshot), checks each InRelease with gpgv and Debian's
# archive keyring, and records each package's suite and .deb SHA-256 in
# stagebuild.lock; a pin the archive lacks fails there, before any build.
# Snapshot Release files are past their Valid-Until date: that check is disabled.
# No heredocs in this catalog's RUN steps: Debian 12's own buildah and podman cannot read them.
RUN set -eux; \
    if [ -n "${DEBIAN_SNAPSHOT}" ]; then \
        printf '%s\n' \
            'Types: deb' \
            "URIs: ${DEBIAN_SNAPSHOT_URL}/archive/debian/${DEBIAN_SNAPSHOT}" \
            "Suites: ${DEBIAN_RELEASE} ${DEBIAN_RELEASE}-updates" \
            'Components: main' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
            '' \
            'Types: deb' \
            "URIs: ${DEBIAN_SNAPSHOT_URL}/archive/debian-security/${DEBIAN_SNAPSHOT}" \
            "Suites: ${DEBIAN_RELEASE}-security" \
            'Components: main' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
            > /etc/apt/sources.list.d/debian.sources; \
        printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'Acquire::Retries "3";' > /etc/apt/apt.conf.d/80snapshot; \
    fi

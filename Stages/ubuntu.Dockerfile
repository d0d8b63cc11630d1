# summary: Ubuntu base (24.04 noble by default); apt can be pinned to one snapshot.ubuntu.com date
# param UBUNTU_RELEASE: the release's code name (noble, jammy), which is also the image's tag: ubuntu:RELEASE
# param UBUNTU_SNAPSHOT: snapshot.ubuntu.com timestamp such as 20251201T000000Z; empty uses the live Ubuntu archive (stagebuild lock --snapshot records one, and compose writes it here)
# param UBUNTU_SNAPSHOT_URL: the snapshot service's base URL: snapshot.ubuntu.com, or a mirror of its layout
# param UBUNTU_KEYRING: the keyring apt checks the archive with: Ubuntu's own, or a mirror's that signs its own copy
# apt-archive: ubuntu release=${UBUNTU_RELEASE} snapshot=${UBUNTU_SNAPSHOT} snapshot-url=${UBUNTU_SNAPSHOT_URL} keyring=${UBUNTU_KEYRING}
ARG UBUNTU_RELEASE=noble
# stagebuild ignore=SB001,SB012 pinned by tag until stagebuild lock pins digests; the templates layered on it set USER
FROM ubuntu:${UBUNTU_RELEASE}
ARG UBUNTU_RELEASE
ARG UBUNTU_SNAPSHOT=
ARG UBUNTU_SNAPSHOT_URL=https://snapshot.ubuntu.com
ARG UBUNTU_KEYRING=/usr/share/keyrings/ubuntu-archive-keyring.gpg

# With a snapshot, apt reads every pocket (release, -updates, -security) as it was at that
# moment, from snapshot.ubuntu.com's ubuntu/ (amd64, i386) or ubuntu-ports/ (every other
# architecture) folder; without one, the image's own sources (archive.ubuntu.com and
# security.ubuntu.com, or ports.ubuntu.com) stay. `stagebuild lock` resolves every
# apt-get install NAME=VERSION of the build stage against the same archive state (the
# apt-archive line above) and checks each InRelease with gpgv and UBUNTU_KEYRING (on a
# Debian machine, the package ubuntu-keyring installs Ubuntu's).
# Snapshot Release files are past their Valid-Until date: that check is disabled.
RUN set -eux; \
    if [ -n "${UBUNTU_SNAPSHOT}" ]; then \
        architecture="$(dpkg --print-architecture)"; \
        folder=ubuntu-ports; \
        if [ "${architecture}" = amd64 ] || [ "${architecture}" = i386 ]; then folder=ubuntu; fi; \
        rm -f /etc/apt/sources.list /etc/apt/sources.list.d/ubuntu.sources; \
        printf '%s\n' \
            'Types: deb' \
            "URIs: ${UBUNTU_SNAPSHOT_URL}/${folder}/${UBUNTU_SNAPSHOT}" \
            "Suites: ${UBUNTU_RELEASE} ${UBUNTU_RELEASE}-updates ${UBUNTU_RELEASE}-security" \
            'Components: main restricted universe multiverse' \
            "Signed-By: ${UBUNTU_KEYRING}" \
            > /etc/apt/sources.list.d/ubuntu.sources; \
        printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'Acquire::Retries "3";' > /etc/apt/apt.conf.d/80snapshot; \
    fi

# summary: A third-party apt repository (Docker's, NodeSource's, PostgreSQL's, …) signed with a key kept in the build context
# param APT_REPOSITORY_NAME: a short name for its sources and key files, e.g. docker
# param APT_REPOSITORY_URL: the repository's URL, e.g. https://download.docker.com/linux/debian
# param APT_REPOSITORY_SUITE: the suite it serves this release as, e.g. bookworm
# param APT_REPOSITORY_COMPONENTS: its components, space-separated, e.g. stable
# param APT_REPOSITORY_KEY: its signing key's file in the build context (ASCII-armored or binary), e.g. docker.asc
# apt-archive: repository url=${APT_REPOSITORY_URL} suites=${APT_REPOSITORY_SUITE} components=${APT_REPOSITORY_COMPONENTS} key=${APT_REPOSITORY_KEY}
ARG APT_REPOSITORY_NAME
ARG APT_REPOSITORY_URL
ARG APT_REPOSITORY_SUITE
ARG APT_REPOSITORY_COMPONENTS=main
ARG APT_REPOSITORY_KEY

# The key goes into the image as it is in the build context; apt reads an armored key
# (.asc) or a binary one (.gpg) named in Signed-By (sources.list(5)). `stagebuild lock`
# checks the repository's InRelease with the same key, and resolves every
# apt-get install NAME=VERSION of the build stage against its index.
COPY ${APT_REPOSITORY_KEY} /etc/apt/keyrings/
RUN printf '%s\n' \
        'Types: deb' \
        "URIs: ${APT_REPOSITORY_URL}" \
        "Suites: ${APT_REPOSITORY_SUITE}" \
        "Components: ${APT_REPOSITORY_COMPONENTS}" \
        "Signed-By: /etc/apt/keyrings/${APT_REPOSITORY_KEY##*/}" \
        > "/etc/apt/sources.list.d/${APT_REPOSITORY_NAME}.sources"

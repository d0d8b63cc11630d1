# summary: a runtime of one version
# param VERSION: the version to install (required)
ARG VERSION
RUN install-runtime "${VERSION}"

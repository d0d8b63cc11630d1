# summary: an unprivileged user that runs the rest of the build stage
# param USER_NAME: the user's name
ARG USER_NAME=app
RUN useradd --system --no-create-home "${USER_NAME}"
USER ${USER_NAME}

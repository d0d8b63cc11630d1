# Covers: ONBUILD with sub-commands: flags of the sub-command, JSON sub-commands, lowercase and odd nestings.
FROM alpine
ONBUILD RUN echo triggered
ONBUILD COPY --from=builder --chown=app:app /out /app
ONBUILD ADD --chmod=644 . /src
onbuild run echo lower
ONBUILD CMD ["serve"]
ONBUILD ENV A=1 B="two words"
ONBUILD LABEL k=v
ONBUILD HEALTHCHECK NONE
ONBUILD WORKDIR /x
ONBUILD   RUN   echo   spaced
ONBUILD RUN --mount=type=cache,target=/c make
ONBUILD ONBUILD RUN nested
ONBUILD FROM other
ONBUILD MAINTAINER me
ONBUILD
ONBUILD --flag=x RUN echo flag before sub-command

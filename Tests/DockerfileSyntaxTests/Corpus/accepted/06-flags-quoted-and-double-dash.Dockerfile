# Covers: flag values in quotes, flags without values, a lone --, and words that only look like flags.
FROM alpine
RUN --mount="type=bind,source=a b,target=/c" ls
RUN --mount='type=cache,target=/x y' ls
RUN --mount=type=bind,"source=with space",target=/t ls
RUN -- echo after double dash
RUN --network=none -- echo both
RUN -- --network=none echo flag after double dash
RUN --flag
RUN --
RUN echo --not-a-flag
COPY --chown="app:app" --chmod='0755' a b
COPY -- --weird-name /dst/
RUN --=empty-name echo x
RUN --a=1 --b --c="" echo
RUN -x echo single dash is not a flag
RUN --mount=type=cache,target=/a\ b echo escaped space

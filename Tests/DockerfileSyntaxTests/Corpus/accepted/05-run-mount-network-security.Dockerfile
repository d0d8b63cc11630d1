# Covers: RUN --mount (cache, secret, ssh, bind, tmpfs), --network, --security, several flags, flags with JSON form.
FROM golang:1.22
RUN --mount=type=cache,target=/root/.cache/go-build go build ./...
RUN --mount=type=cache,target=/var/cache/apt,sharing=locked --mount=type=cache,target=/var/lib/apt,sharing=locked apt-get update
RUN --mount=type=secret,id=x cat /run/secrets/x
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc,required=true npm ci
RUN --mount=type=ssh git clone git@example.com:a/b.git
RUN --mount=type=bind,from=build,source=/out,target=/in ls /in
RUN --network=none make test
RUN --network=host --security=insecure ./privileged.sh
RUN --mount=type=tmpfs,target=/tmp,size=64m \
    --network=none \
    echo done
RUN --mount=type=cache,target=/root/.npm ["npm", "ci"]
RUN --mount=type=cache,id=gomod,target=/go/pkg/mod,uid=1000,gid=1000,mode=0755 go mod download

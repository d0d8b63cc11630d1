# expect-none: SB010
FROM alpine:3.20@sha256:beefdbd8a1da6d2915566fde36db9db0b524eb737fc57cd1367effd16dc0d06d
ADD https://github.com/moby/buildkit.git#8d3d9a7cf8a6b5f0f6c2d0c7a3c1e0b5a7d9f2e1 /src
ADD --keep-git-dir=true https://github.com/docker/cli.git#2ae903e86ff5e3e0e9ff5d4fa2d1e5e1a3b8b7c4 /cli
USER nobody
CMD ["ls", "/src"]

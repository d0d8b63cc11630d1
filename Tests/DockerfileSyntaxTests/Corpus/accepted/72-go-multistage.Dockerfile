# syntax=docker/dockerfile:1.7
# Covers: a real-world-shaped Go build: module cache mounts, cross-compilation, distroless static runtime.
ARG GO_VERSION=1.22
ARG ALPINE_VERSION=3.19

FROM --platform=$BUILDPLATFORM golang:${GO_VERSION}-alpine${ALPINE_VERSION} AS build
WORKDIR /src
ARG TARGETOS TARGETARCH
ENV CGO_ENABLED=0 \
    GOFLAGS="-trimpath -mod=readonly"

# dependencies first, for the layer cache
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod \
    go mod download -x

COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -ldflags="-s -w -X main.version=${VERSION:-dev}" -o /out/server ./cmd/server

FROM build AS test
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go test ./...

FROM gcr.io/distroless/static-debian12:nonroot AS runtime
LABEL org.opencontainers.image.source="https://example.com/acme/server" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=build --chown=nonroot:nonroot /out/server /server
USER nonroot:nonroot
EXPOSE 8080/tcp
HEALTHCHECK --interval=30s --timeout=3s --retries=3 \
  CMD ["/server", "healthcheck"]
ENTRYPOINT ["/server"]
CMD ["--listen", ":8080"]

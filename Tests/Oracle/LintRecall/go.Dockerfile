FROM golang:1.22 AS tools
RUN go install github.com/go-delve/delve/cmd/dlv@latest
RUN go install golang.org/x/tools/gopls
RUN go install honnef.co/go/tools/cmd/staticcheck@2023.1.7 \
    && go install github.com/securego/gosec/v2/cmd/gosec
RUN CGO_ENABLED=0 go install -ldflags="-s -w" github.com/air-verse/air@v1.52.3
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=tools /go/bin/dlv /dlv
ENTRYPOINT ["/dlv"]

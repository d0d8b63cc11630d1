# summary: Run-time libraries for a Swift program built with --static-swift-stdlib, a non-root user and an exec-form ENTRYPOINT
# param EXECUTABLE: absolute path of the program in the image, e.g. /usr/local/bin/stagebuild (the Stagefile copies it there)
# param SERVICE_USER: name of the unprivileged system user and group that runs the program
ARG EXECUTABLE
ARG SERVICE_USER=app

# --static-swift-stdlib links Swift and Foundation in; the C libraries stay shared:
# libcurl (FoundationNetworking, CCurl), libstdc++ and zlib (already in bookworm-slim).
# tzdata backs TimeZone; ca-certificates backs TLS chain validation.
# Add libxml2 only for a program that imports FoundationXML.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates=20250419~deb12u2 \
        libcurl4=7.88.1-10+deb12u15 \
        tzdata=2026f-0+deb12u1 \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system "${SERVICE_USER}" \
    && useradd --system --gid "${SERVICE_USER}" --home-dir "/home/${SERVICE_USER}" --create-home \
        --shell /usr/sbin/nologin "${SERVICE_USER}"

# ENTRYPOINT's exec form cannot name a parameter, so a two-line launcher holds the
# path (filled in by BuildKit) and execs the program: it runs as PID 1, gets the
# signals, and sees its own path as argv[0].
COPY --chmod=0755 <<EOF /usr/local/bin/swift-entrypoint
#!/bin/sh
exec "${EXECUTABLE}" "\$@"
EOF

USER ${SERVICE_USER}
WORKDIR /home/${SERVICE_USER}
ENTRYPOINT ["/usr/local/bin/swift-entrypoint"]

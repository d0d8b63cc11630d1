# Covers: ADD/COPY flags --from, --chown, --chmod, --link, --checksum, --exclude, --parents, --keep-git-dir, and JSON form.
FROM alpine
COPY --from=build /out/app /usr/local/bin/app
COPY --from=0 /a /b
COPY --chown=1000:1000 --chmod=0755 entrypoint.sh /
COPY --link --chown=app . /app
COPY --exclude=*.md --exclude=tests/ . /src
COPY --parents ./a/**/b.txt /dst/
ADD --checksum=sha256:24454f830cdb571e2c4ad15481119c43b3cafd48dd869a9b2945d1036d1dc68d https://example.com/file.tar.gz /tmp/
ADD --keep-git-dir=true https://github.com/moby/buildkit.git#v0.12.5 /buildkit
ADD --link --chmod=644 files/* /etc/app/
COPY ["file with spaces.txt", "/dest dir/"]
ADD ["a", "b", "/c/"]
COPY --chown=app ["x", "/y"]
COPY a   b    /many/spaces/
COPY "quoted src" 'single quoted' /dst/
COPY a\ b /escaped/space

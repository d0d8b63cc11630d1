/// The catalog of causes `stagebuild verify` names, each with its fix and an example. The fixes
/// are the ones the catalog's own templates apply (`Stages/debian.Dockerfile`,
/// `Stages/swift-runtime.Dockerfile`); the builders' options are BuildKit's
/// (`rewrite-timestamp`, docs.docker.com "Reproducible builds with SOURCE_DATE_EPOCH") and
/// buildah's (`bud --timestamp`, buildah-build(1)).
extension ReproducibilityCause {
    /// Files keep the time they were written, or the build context's time for `COPY`.
    public static let fileTimes = ReproducibilityCause(
        id: "file-times",
        summary: "files keep the time they were written (a COPY: the time the context's file had), later than SOURCE_DATE_EPOCH",
        fix: "have the builder clamp file times to SOURCE_DATE_EPOCH: buildah bud --timestamp \"$SOURCE_DATE_EPOCH\", "
            + "BuildKit 0.13 or later: docker buildx build --output type=image,rewrite-timestamp=true "
            + "(stagebuild verify --rewrite-timestamp checks with buildah's)",
        example: "RUN mkdir /app: /app's mtime is the minute of each build")

    /// The image configuration records the time of the build.
    public static let configurationTime = ReproducibilityCause(
        id: "configuration-time",
        summary: "the image configuration records when it was built (created, history[].created)",
        fix: "build with the time fixed: buildah bud --timestamp \"$SOURCE_DATE_EPOCH\", or BuildKit 0.11 or later "
            + "(Docker 23 or later) with the build argument SOURCE_DATE_EPOCH set",
        example: "created \"2026-12-03T10:11:59Z\" against \"2026-12-03T10:13:02Z\"")

    /// dpkg's and apt's logs and caches.
    public static let packageManagerLogs = ReproducibilityCause(
        id: "package-manager-logs",
        summary: "dpkg's and apt's logs and caches record the time of the install",
        fix: "end the RUN that installs packages with "
            + "rm -f /var/log/dpkg.log /var/log/alternatives.log /var/log/apt/*.log /var/cache/apt/*.bin "
            + "(as the catalog's debian and swift-runtime templates do)",
        example: "var/log/dpkg.log: \"2026-12-03 10:11:59 status installed\"")

    /// ldconfig's aux-cache.
    public static let ldconfigCache = ReproducibilityCause(
        id: "ldconfig-cache",
        summary: "ldconfig's aux-cache records the libraries' file times and inode numbers",
        fix: "rm -f /var/cache/ldconfig/aux-cache at the end of the RUN",
        example: "var/cache/ldconfig/aux-cache after apt-get install")

    /// debconf's `-old` files.
    public static let debconfOld = ReproducibilityCause(
        id: "debconf-old",
        summary: "debconf keeps the previous state of its database in -old files",
        fix: "rm -f /var/cache/debconf/*-old at the end of the RUN",
        example: "var/cache/debconf/templates.dat-old")

    /// Python bytecode.
    public static let pythonBytecode = ReproducibilityCause(
        id: "python-bytecode",
        summary: "Python bytecode records its source's time, or is written in a varying order",
        fix: "ENV PYTHONDONTWRITEBYTECODE=1 before the line, or compile with "
            + "python3 -m compileall --invalidation-mode unchecked-hash, or remove __pycache__ at the end of the RUN",
        example: "usr/lib/python3/dist-packages/x/__pycache__/y.cpython-311.pyc")

    /// npm's, pip's and similar tools' caches and logs.
    public static let toolCaches = ReproducibilityCause(
        id: "tool-caches",
        summary: "a package tool's cache or log (npm, pip, yarn) stayed in the layer",
        fix: "npm ci --cache /tmp/npm-cache then rm -rf /tmp/npm-cache ~/.npm/_logs, pip install --no-cache-dir, "
            + "or RUN --mount=type=cache for the cache folder",
        example: "root/.npm/_logs/2026-12-03T10_11_59_123Z-debug-0.log")

    /// Files left in `/tmp`.
    public static let temporaryFiles = ReproducibilityCause(
        id: "temporary-files",
        summary: "files left in /tmp or /var/tmp",
        fix: "remove them at the end of the same RUN (rm -rf /tmp/* /var/tmp/*) or use RUN --mount=type=tmpfs,target=/tmp",
        example: "tmp/build-1234.log")

    /// A machine ID made anew.
    public static let machineID = ReproducibilityCause(
        id: "machine-id",
        summary: "a machine ID is made anew by each build (systemd, dbus)",
        fix: "rm -f /etc/machine-id /var/lib/dbus/machine-id (or truncate it) at the end of the RUN",
        example: "etc/machine-id")

    /// Archives that embed the time of their making.
    public static let archiveTimes = ReproducibilityCause(
        id: "archive-times",
        summary:
            "an archive made during the build records times: its members' (tar and zip entries) or its own (a gzip header)",
        fix:
            "tar --sort=name --mtime=@\"$SOURCE_DATE_EPOCH\" --owner=0 --group=0 --numeric-owner; gzip -n (no name, no time); "
            + "zip -X with the files touched to SOURCE_DATE_EPOCH first; or strip-nondeterminism on the archive",
        example: "usr/share/doc/app/changelog.gz: gzip MTIME field")

    /// A package installed at another version.
    public static let packageVersion = ReproducibilityCause(
        id: "package-version",
        summary: "a package was installed at another version: the archive moved between the builds",
        fix:
            "pin it in the template (NAME=VERSION; stagebuild lock writes the pins) or install from a snapshot (DEBIAN_SNAPSHOT)",
        example: "var/lib/dpkg/status: curl 7.88.1-10+deb12u7 against 7.88.1-10+deb12u8")

    /// Content fetched from the network that changed.
    public static let networkContent = ReproducibilityCause(
        id: "network-content",
        summary: "the line downloads content that changed between the builds",
        fix: "fetch a versioned URL and check it: ADD --checksum=sha256:… or sha256sum -c in the RUN",
        example: "RUN curl -fsSL https://example.com/latest.tar.gz | tar -xz")

    /// Content that depends on the CPU count.
    public static let cpuCount = ReproducibilityCause(
        id: "cpu-count",
        summary: "the content depends on how many CPUs the build saw (nproc, make -j)",
        fix: "write a fixed number instead of what nproc says (make -j4), or leave the file out of the image",
        example: "RUN nproc > /etc/workers: \"2\" against \"1\"")

    /// Content that depends on the host name.
    public static let hostName = ReproducibilityCause(
        id: "host-name",
        summary: "the content depends on the build container's host name, which each build gets anew",
        fix: "write a fixed name instead of hostname's answer, or leave the file out of the image",
        example: "RUN hostname > /etc/built-on: \"1e3d18192b78\" against \"5f63f22d740a\"")

    /// Content that holds the build context's path.
    public static let buildPath = ReproducibilityCause(
        id: "build-path",
        summary: "the content holds the path of the build's folder",
        fix: "write paths relative to the build context, or a fixed path",
        example: "a generated file naming /home/ci/builds/42/src")

    /// Content that holds a variable the builder passes on.
    public static let environment = ReproducibilityCause(
        id: "environment",
        summary: "the content holds an environment variable the builder passes on from its own environment "
            + "(buildah and docker: the proxy variables)",
        fix: "write only the variables the image needs, by name; never the whole environment",
        example: "RUN env > /etc/build-env")

    /// A context file's mode from the umask of its checkout.
    public static let contextPermissions = ReproducibilityCause(
        id: "context-permissions",
        summary: "a file copied from the build context keeps the mode its checkout gave it (the umask where it was checked out)",
        fix: "give the mode on the line: COPY --chmod=0644 for files, 0755 for programs and for a folder "
            + "(its folders get the mode too and must stay traversable)",
        example: "COPY app.conf /etc/app.conf: -rw-r--r-- against -rw-rw-r--")

    /// Entries in another order.
    public static let entryOrder = ReproducibilityCause(
        id: "entry-order",
        summary: "the layer's entries come in another order (the order the file system listed the folder)",
        fix: "not in the template: the builder writes entries as the folder lists them; a builder that sorts them "
            + "(BuildKit) avoids it",
        example: "COPY src/ /app/ from a context copied in another order")

    /// Content that holds the time of the build.
    public static let buildTime = ReproducibilityCause(
        id: "build-time",
        summary: "the content holds the time of the build (date, a build stamp)",
        fix:
            "write SOURCE_DATE_EPOCH's time instead: date -u -d \"@$SOURCE_DATE_EPOCH\" (declare ARG SOURCE_DATE_EPOCH in the template)",
        example: "RUN date > /etc/build-date")

    /// A configuration field that records the layers or the step before.
    public static let followsLayers = ReproducibilityCause(
        id: "follows-layers",
        summary: "the configuration records each layer's digest (rootfs.diff_ids), the image of the step before "
            + "(history[].comment) and the digest of what a COPY copied (history[].created_by), so it differs where they do",
        fix: "fix the layers' causes; these fields follow",
        example: "rootfs.diff_ids[3] differs because layer 4 does")

    /// Nothing in the catalog matches.
    public static let unexplained = ReproducibilityCause(
        id: "unexplained",
        summary: "no cause in the catalog matches",
        fix: "compare the two in full: files with stagebuild verify --diffoscope, configurations with --keep",
        example: "a binary whose bytes differ at no recognisable place")

    /// Every cause, in the order reports list them.
    public static let catalog: [ReproducibilityCause] = [
        fileTimes, configurationTime, packageManagerLogs, ldconfigCache, debconfOld, pythonBytecode, toolCaches,
        temporaryFiles, machineID, archiveTimes, packageVersion, networkContent, cpuCount, hostName, buildPath,
        environment, contextPermissions, entryOrder, buildTime, followsLayers, unexplained,
    ]
}

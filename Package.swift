// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stagebuild",
    products: [
        .executable(name: "stagebuild", targets: ["stagebuild"])
    ],
    targets: [
        // Dockerfile source text -> syntax tree -> typed instructions -> printed text. Pure: no I/O.
        .target(name: "DockerfileSyntax", dependencies: ["Serialization"]),
        // Stage templates, catalogs, Stagefiles, composition, lint rules and their config (read
        // with YAML), image references, the lockfile and registry resolution. Resolution speaks the registry HTTP API v2 through the
        // `RegistryTransport` protocol only, so StageKit stays free of network code and tests swap
        // the transport; the real one (libcurl with ProbeKit's proxy selection) lives in the CLI,
        // which already depends on both kits and chooses every side effect.
        // The Debian archive's InRelease and Packages.xz files are read through the same transport;
        // their signature check is behind `ArchiveSignatureCheck` (gpgv, run by the CLI).
        // Image layers (tar streams) are read through `Archives` (libarchive) for `stagebuild verify`.
        .target(
            name: "StageKit",
            dependencies: ["DockerfileSyntax", "Digests", "Serialization", "YAML", "XZ", "JSONReader", "Archives"]),
        // Argument parsing, help text, commands and exit codes; runs in-process for tests. Holds the
        // libcurl registry transport for `stagebuild lock` (see StageKit).
        .target(
            name: "StagebuildCLI",
            dependencies: [
                "StageKit", "DockerfileSyntax", "ProbeKit", "SanityServer", "Curl", "Digests", "Exporter", "Patterns", "Archives",
                "Serialization", "YAML", "JSONReader",
            ]),
        // HTTP/1.1 sanity upstream on POSIX sockets: event loops on epoll, a pure request parser, echo
        // routes, graceful shutdown.
        .target(name: "SanityServer", dependencies: ["Digests", "CEpoll", "Serialization"]),
        // <sys/epoll.h>, which the Glibc module leaves out: the event loops' one system header.
        .systemLibrary(name: "CEpoll"),
        // OpenSSL's libcrypto from Debian's libssl-dev, with a small shim over its EVP digest calls.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The only importer of CCrypto: SHA-256 digests as bytes, hex and "sha256:" + hex, and
        // PEM certificates read as libcurl reads a CA file.
        .target(name: "Digests", dependencies: ["CCrypto", "Serialization"]),
        // libcurl from Debian's libcurl4-openssl-dev, with typed C wrappers for its variadic calls.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The only importer of CCurl: an easy handle with typed options, timings and CURLcode errors.
        .target(name: "Curl", dependencies: ["CCurl", "Serialization"]),
        // RE2 from Debian's libre2-dev behind a few C functions (RE2 is C++; Swift calls C).
        // Its static archive (`-l:libre2.a`): the shared libre2.so.9 would also load the shared
        // libstdc++.so.6, whose relocation cost about 3 ms of every process start. libstdc++ comes
        // after it, as a static archive must (the release link takes its archive too: scripts/link).
        .target(name: "CRE2", linkerSettings: [.linkedLibrary(":libre2.a"), .linkedLibrary("stdc++")]),
        // The only importer of CRE2: regular expressions users give, matched in linear time.
        .target(name: "Patterns", dependencies: ["CRE2"]),
        // Probe requests through HTTP proxies: proxy selection as curl does it, policies, outcomes.
        .target(name: "ProbeKit", dependencies: ["Curl", "Patterns", "Digests", "Serialization", "PAC"]),
        // The one JSON writer (keys in a fixed order, the same bytes on every platform) and the
        // one XML/HTML escaper. Pure: no Foundation.
        .target(name: "Serialization"),
        // libyaml from Debian's libyaml-dev: YAML's scanner and parser, called through its event API.
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // The only importer of CYAML: one YAML document (a config file) as nodes with marks,
        // aliases resolved, keys unique, size and depth limited. libyaml's static archive
        // (`-l:libyaml.a`), as RE2's: the runtime image needs no libyaml package.
        .target(name: "YAML", dependencies: ["CYAML"], linkerSettings: [.linkedLibrary(":libyaml.a")]),
        // Jansson from Debian's libjansson-dev: a strict JSON decoder (a member named twice is an error).
        .systemLibrary(name: "CJansson", providers: [.apt(["libjansson-dev"])]),
        // The only importer of CJansson: JSON text read strictly into Serialization's `JSONValue`
        // (lockfiles, registry answers, auth files). Jansson's static archive, as libyaml's.
        .target(
            name: "JSONReader", dependencies: ["CJansson", "Serialization"], linkerSettings: [.linkedLibrary(":libjansson.a")]),
        // liblzma from Debian's liblzma-dev: the xz decoder (Debian's Packages.xz indexes).
        .systemLibrary(name: "CLzma", providers: [.apt(["liblzma-dev"])]),
        // The only importer of CLzma: a whole .xz file decompressed, with a bound on its size.
        .target(name: "XZ", dependencies: ["CLzma"]),
        // libarchive from Debian's libarchive-dev: tar streams in any compression (image layers).
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // The only importer of CArchive: a tar stream read entry by entry, each entry's content
        // hashed as it streams (`stagebuild verify` compares image layers with it).
        .target(name: "Archives", dependencies: ["CArchive", "Digests"]),
        // libpacparser from Debian's libpacparser-dev: proxy auto-config scripts in SpiderMonkey.
        .systemLibrary(name: "CPacParser", providers: [.apt(["libpacparser-dev"])]),
        // The only importer of CPacParser: `FindProxyForURL` run in a child process held to a time
        // and a memory limit.
        .target(name: "PAC", dependencies: ["CPacParser", "Serialization"]),
        // The probe as a Prometheus target on the server's core: blackbox_exporter's config
        // format (read with YAML), its metric names, and the probe's reasons.
        .target(
            name: "Exporter",
            dependencies: ["ProbeKit", "SanityServer", "YAML", "Patterns", "Curl", "Serialization", "JSONReader", "Digests"]),
        // The executable: one call into StagebuildCLI.
        .executableTarget(name: "stagebuild", dependencies: ["StagebuildCLI"]),
        // Not a product: the fuzz targets for the parsers that read hostile text. scripts/fuzz
        // builds it with `-D FUZZING -sanitize=fuzzer,address`, and libFuzzer drives it; built
        // normally, it replays inputs and runs the scaling check (Tests/Fuzz/README.md).
        .executableTarget(
            name: "stagebuild-fuzz",
            dependencies: [
                "DockerfileSyntax", "SanityServer", "ProbeKit", "StageKit", "Serialization", "JSONReader", "CLibFuzzer",
            ],
            path: "Tests/Fuzz", exclude: ["Seeds", "README.md"]),
        // libFuzzer's LLVMFuzzerRunDriver, which the fuzz build's main calls.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/CLibFuzzer"),

        // Not a product: the helpers several test targets share (running a process with a deadline,
        // a background server process, a scratch folder, loopback ports). Foundation only, so any
        // test target may depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "DockerfileSyntaxTests", dependencies: ["DockerfileSyntax"], resources: [.copy("Corpus")]),
        .testTarget(name: "StageKitTests", dependencies: ["StageKit", "YAML", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "StagebuildCLITests", dependencies: ["StagebuildCLI", "StageKit", "SanityServer", "TestSupport"]),
        .testTarget(name: "CurlTests", dependencies: ["Curl", "TestSupport"]),
        .testTarget(name: "ProbeKitTests", dependencies: ["ProbeKit", "Curl", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "SanityServerTests", dependencies: ["SanityServer", "Serialization"]),
        .testTarget(name: "SerializationTests", dependencies: ["Serialization"]),
        .testTarget(name: "DigestsTests", dependencies: ["Digests"]),
        .testTarget(name: "PatternsTests", dependencies: ["Patterns"]),
        .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
        .testTarget(name: "JSONReaderTests", dependencies: ["JSONReader", "Serialization"]),
        .testTarget(name: "XZTests", dependencies: ["XZ", "TestSupport"]),
        .testTarget(name: "PACTests", dependencies: ["PAC"]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "Digests", "TestSupport"]),
        .testTarget(name: "ExporterTests", dependencies: ["Exporter", "ProbeKit", "Serialization"]),
        // Runs the built stagebuild against real servers on loopback (Tests/e2e/servers); needs STAGEBUILD_E2E_STATE.
        .testTarget(name: "ProbeE2ETests", dependencies: ["DockerfileSyntax", "TestSupport"]),
        // Runs the built stagebuild lock/compose against real registries on loopback (Tests/e2e/registry);
        // needs STAGEBUILD_REGISTRY_STATE.
        .testTarget(name: "LockE2ETests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

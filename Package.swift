// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stagebuild",
    products: [
        .executable(name: "stagebuild", targets: ["stagebuild"])
    ],
    targets: [
        // Dockerfile source text -> syntax tree -> typed instructions -> printed text. Pure: no I/O.
        .target(name: "DockerfileSyntax"),
        // Stage templates, catalogs, Stagefiles and the composition of one reproducible Dockerfile.
        .target(name: "StageKit", dependencies: ["DockerfileSyntax"]),
        // Argument parsing, help text, commands and exit codes; runs in-process for tests.
        .target(name: "StagebuildCLI", dependencies: ["StageKit", "DockerfileSyntax"]),
        // The executable: one call into StagebuildCLI.
        .executableTarget(name: "stagebuild", dependencies: ["StagebuildCLI"]),

        .testTarget(name: "DockerfileSyntaxTests", dependencies: ["DockerfileSyntax"], resources: [.copy("Corpus")]),
        .testTarget(name: "StageKitTests", dependencies: ["StageKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "StagebuildCLITests", dependencies: ["StagebuildCLI"]),
    ],
    swiftLanguageModes: [.v6]
)

/// One parser under fuzzing: a name for the command line and the check it runs on one input.
///
/// A check returns normally for any input the parser handles as it should, rejection included;
/// it calls ``invariantFailed(_:_:)`` (which traps, so libFuzzer keeps the input as a crash)
/// when the parser's answer breaks a property that must hold for every input.
struct FuzzTarget: Sendable {
    /// The name used by `scripts/fuzz`, the seed folder `Tests/Fuzz/Seeds/<name>` and replay.
    let name: String
    /// The check for one input.
    let check: @Sendable ([UInt8]) -> Void
    /// A seed made `factor` times as large, still a document of the same kind, for the scaling
    /// check (a Dockerfile repeated, a NO_PROXY list with its entries repeated, …).
    let grow: @Sendable (_ seed: [UInt8], _ factor: Int) -> [UInt8]

    /// Every fuzz target, in the order `scripts/fuzz` runs them.
    static let all: [FuzzTarget] = [
        DockerfileFuzz.target, HTTPRequestFuzz.target, ProxyURLFuzz.target, NoProxyFuzz.target,
        LockfileFuzz.target, RegistryFuzz.target,
    ]

    /// The target with this name, if any.
    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Stops the process with a message on standard error: the input broke an invariant.
///
/// libFuzzer treats the trap as a crash and writes the input to `crash-<sha1>`, which
/// `stagebuild-fuzz <target> FILE` replays.
func invariantFailed(_ target: String, _ message: String) -> Never {
    fatalError("\(target): invariant broken: \(message)")
}

/// Splits an input into text parts at its first `count - 1` NUL bytes, so one fuzz input can
/// carry several strings (a NO_PROXY list and a host, say). `nil` when a part is not UTF-8.
func textParts(of bytes: [UInt8], count: Int) -> [String]? {
    let slices = bytes.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false)
    var parts: [String] = []
    for slice in slices {
        guard let text = String(validating: slice, as: UTF8.self) else { return nil }
        parts.append(text)
    }
    while parts.count < count { parts.append("") }
    return parts
}

import Foundation

/// The scaling check: a parser's time per input byte must not grow with the input. Each seed is
/// grown to 1x, 10x and 100x its size by the target's ``FuzzTarget/grow`` (a longer document of
/// the same kind) and timed; the run fails when the time per byte at 100x is more than
/// ``allowedGrowth`` times that at 1x, which a quadratic step would exceed at once.
enum Scaling {
    /// The largest ratio of time per byte at 100x to that at 1x that still counts as linear.
    /// Generous, because one-off costs (first allocation, caches) weigh most at 1x.
    static let allowedGrowth = 4.0
    /// The seeds timed: the first files up to this many bytes, so that 100x stays small enough
    /// to time in a debug build in seconds.
    static let seedBytes = 3_000
    /// The bytes parsed in each timing of a size (rounds of the grown seeds).
    static let bytesPerSize = 300_000

    /// Times `target` over the seeds at three sizes and prints one line per size.
    ///
    /// - Returns: Whether the time per byte stayed within ``allowedGrowth``.
    /// - Throws: A Foundation error when a seed cannot be read.
    static func run(_ target: FuzzTarget, seeds: [String]) throws -> Bool {
        var inputs: [[UInt8]] = []
        var total = 0
        for seed in seeds where total < seedBytes {
            let bytes = try ReplayInputs.bytes(of: seed)
            guard !bytes.isEmpty else { continue }
            inputs.append(bytes)
            total += bytes.count
        }
        guard !inputs.isEmpty else {
            print("\(target.name): no seeds to time")
            return false
        }
        var perByte: [Double] = []
        for factor in [1, 10, 100] {
            let grown = inputs.map { target.grow($0, factor) }
            let bytes = grown.reduce(0) { $0 + $1.count }
            let rounds = max(1, bytesPerSize / max(1, bytes))
            // The fastest of three timings: other work on the machine only ever adds time.
            var seconds = Double.infinity
            for _ in 0..<3 {
                let start = ContinuousClock.now
                for _ in 0..<rounds {
                    for input in grown { target.check(input) }
                }
                seconds = min(seconds, (ContinuousClock.now - start) / .seconds(1))
            }
            perByte.append(seconds / Double(rounds * bytes))
            print("\(target.name): \(factor)x: \(bytes) bytes, \(String(format: "%.1f", perByte.last! * 1e9)) ns per byte")
        }
        let growth = perByte[2] / perByte[0]
        let linear = growth <= allowedGrowth
        print(
            "\(target.name): time per byte at 100x is \(String(format: "%.2f", growth))x that at 1x: \(linear ? "linear" : "NOT LINEAR")"
        )
        return linear
    }
}

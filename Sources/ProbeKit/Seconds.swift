/// Formats seconds and milliseconds for messages and reports.
enum Seconds {
    /// `2` for 2.0, `0.5` for 0.5, `1.25` for 1.25: at most three decimals, no trailing zeros.
    static func text(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Milliseconds with one decimal, e.g. `"12.3"`.
    static func milliseconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

extension Duration {
    /// The duration in seconds, e.g. `1.5` for 1.5 s: the one conversion the runner's deadline,
    /// the engines' timings and the report's elapsed time share.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

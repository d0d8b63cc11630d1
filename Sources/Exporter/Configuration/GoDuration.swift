/// Durations as blackbox_exporter's config writes them: a module's `timeout` is Go's
/// `time.Duration`, read by `time.ParseDuration`, e.g. `"5s"`, `"1m30s"`, `"500ms"`, `"1.5s"`.
enum GoDuration {
    /// Seconds of a duration text, or `nil` when it is not one: a sequence of decimal numbers
    /// each with a unit (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`: Go's, without Prometheus's
    /// `d`, `w`, `y`, which blackbox refuses for `timeout`); `"0"` alone is zero.
    static func seconds(_ text: String) -> Double? {
        if text == "0" { return 0 }
        let units: [(String, Double)] = [
            ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600),
        ]
        var rest = Substring(text)
        var total = 0.0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            guard let (unit, scale) = units.filter({ rest.hasPrefix($0.0) }).max(by: { $0.0.count < $1.0.count }) else {
                return nil
            }
            rest = rest.dropFirst(unit.count)
            total += value * scale
        }
        return total
    }
}

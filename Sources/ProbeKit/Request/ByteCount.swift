/// A size in bytes as users write one: `1048576`, `512k`, `64MiB`, `10MB`, `1GB`.
///
/// Every unit is a power of 1024, as curl reads `--max-filesize` (`k`, `M`, `G`) and
/// blackbox_exporter reads `body_size_limit` (Go's `units.Base2Bytes`: `KB` and `KiB` alike
/// are 1024 bytes). Letters compare in any case; a `B` after the unit may be left out.
public enum ByteCount {
    /// The byte count of a text, or `nil` when it is no size or too large for an `Int`.
    ///
    /// - Parameter text: digits, then an optional unit: `B`, `K`/`KB`/`KiB`, `M`/`MB`/`MiB`,
    ///   `G`/`GB`/`GiB`, `T`/`TB`/`TiB`.
    public static func parse(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let count = Int(digits) else { return nil }
        let unit = text.dropFirst(digits.count).lowercased()
        let shifts: [String: Int] = [
            "": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30,
            "t": 40, "tb": 40, "tib": 40,
        ]
        guard let shift = shifts[unit] else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : product
    }
}

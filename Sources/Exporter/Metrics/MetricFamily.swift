/// One metric family in Prometheus's text exposition format (version 0.0.4): its `# HELP` and
/// `# TYPE` lines, then one sample line per label set.
///
/// Format rules (Prometheus "Exposition formats", text format details): a metric name matches
/// `[a-zA-Z_:][a-zA-Z0-9_:]*`; label values escape backslash, double quote and line feed; HELP
/// text escapes backslash and line feed; values are Go-style floats (`NaN`, `+Inf`, `-Inf`).
public struct MetricFamily: Sendable, Equatable {
    /// The family's type, as `# TYPE` names it.
    public enum Kind: String, Sendable {
        case gauge, counter, histogram, summary, untyped
    }

    /// One sample: labels in order, and a value.
    public struct Sample: Sendable, Equatable {
        /// `(name, value)` pairs, in the order written.
        public var labels: [(name: String, value: String)]
        /// The sample's value.
        public var value: Double
        /// A suffix to the family's name for histogram and summary parts, e.g. `"_sum"`.
        public var suffix: String

        /// A sample.
        ///
        /// - Parameters:
        ///   - labels: Label pairs in order.
        ///   - value: The value.
        ///   - suffix: Appended to the family's name, e.g. `"_total"` or `"_bucket"`; empty by default.
        public init(labels: [(name: String, value: String)] = [], value: Double, suffix: String = "") {
            self.labels = labels
            self.value = value
            self.suffix = suffix
        }

        /// Equal labels in order, suffix, and value (bit for bit, so `NaN` equals `NaN`).
        public static func == (left: Sample, right: Sample) -> Bool {
            left.value.bitPattern == right.value.bitPattern && left.suffix == right.suffix
                && left.labels.elementsEqual(right.labels) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// The metric name, e.g. `"probe_success"`.
    public var name: String
    /// What it measures, one line.
    public var help: String
    /// Its type.
    public var kind: Kind
    /// Its samples, in the order written.
    public var samples: [Sample]

    /// A family.
    ///
    /// - Parameters:
    ///   - name: The metric name, e.g. `"probe_success"`.
    ///   - help: One line saying what it measures.
    ///   - kind: Its type.
    ///   - samples: Its samples; a family without any is not written.
    public init(_ name: String, help: String, kind: Kind = .gauge, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }

    /// A gauge with one sample without labels.
    public static func gauge(_ name: String, help: String, _ value: Double) -> MetricFamily {
        MetricFamily(name, help: help, samples: [Sample(value: value)])
    }

    /// The family's lines, each ending in a line feed; empty without samples.
    public var text: String {
        guard !samples.isEmpty else { return "" }
        var text = "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            text += name + sample.suffix
            if !sample.labels.isEmpty {
                text +=
                    "{" + sample.labels.map { "\($0.name)=\"\(Self.escapedLabelValue($0.value))\"" }.joined(separator: ",") + "}"
            }
            text += " " + Self.value(sample.value) + "\n"
        }
        return text
    }

    /// The content type of a page of families.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A value as Prometheus's parser reads it: integers without a fraction, others in Swift's
    /// shortest round-tripping form, and `NaN`, `+Inf`, `-Inf`.
    static func value(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escapedLabelValue(_ value: String) -> String { escaped(value, quote: true) }

    /// HELP text: backslash and line feed escaped (a quote stays as it is).
    static func escapedHelp(_ help: String) -> String { escaped(help, quote: false) }

    private static func escaped(_ text: String, quote: Bool) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quote: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

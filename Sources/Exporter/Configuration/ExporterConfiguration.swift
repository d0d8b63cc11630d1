import YAML

/// An exporter's modules, read from blackbox_exporter's own config format (`blackbox.yml`):
/// `modules:` maps a name to a module with `prober`, `timeout` and a prober section. The `http`
/// prober is supported; modules of the other probers (`tcp`, `icmp`, `dns`, `grpc`), and `http`
/// modules holding a key this exporter cannot act on (a CEL body check), load and are
/// listed as not run with why, so blackbox's own example file loads unchanged.
///
/// Keys are blackbox's (config/config.go, and prometheus/common's `HTTPClientConfig` inlined in
/// `http:`). An unknown key is an error naming it; no key is ever ignored.
public struct ExporterConfiguration: Sendable {
    /// The modules, in the file's order.
    public var modules: [ExporterModule]

    /// The module named `name`.
    public func module(named name: String) -> ExporterModule? {
        modules.first { $0.name == name }
    }

    /// Reads a config file's text.
    ///
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The file's name, for errors.
    /// - Throws: ``YAMLConfigError`` with `file:line:column` for an empty file, YAML that does
    ///   not parse, an unknown or unsupported key, or a value of the wrong kind.
    public init(parsing text: String, file: String) throws(YAMLConfigError) {
        let reader = YAMLConfigReader(file: file)
        // As blackbox, whose YAML decoder answers EOF: an empty or truncated file (a deploy cut
        // short) is an error, so a reload keeps the modules it has.
        guard let root = try reader.document(text) else {
            throw YAMLConfigError(
                file: file, line: 1, column: 1, message: "the file holds no YAML document; blackbox's config has modules:")
        }
        let top = try reader.mapping(root, allowed: ["modules"], in: "the top level")
        var modules: [ExporterModule] = []
        if let section = top["modules"] {
            for (key, value) in try reader.pairs(section, in: "modules") {
                modules.append(try ExporterModule(name: try reader.string(key), node: value, reader: reader))
            }
        }
        self.modules = modules
    }
}

/// One module: how to probe a target.
public struct ExporterModule: Sendable {
    /// The module's name, as `/probe?module=` gives it.
    public var name: String
    /// The prober: `http`, or one this exporter does not run (`tcp`, `icmp`, `dns`, `grpc`).
    public var prober: String
    /// The probe's time limit in seconds, when the module sets one (blackbox's `timeout`).
    public var timeout: Double?
    /// The `http` prober's settings.
    public var http: HTTPModuleSettings

    /// Whether this exporter runs the module: its prober is `http` and it holds no key the
    /// exporter cannot act on.
    public var isSupported: Bool { notRunReason == nil }

    /// Why this exporter does not run the module, in a sentence; `nil` when it does.
    public var notRunReason: String? {
        guard prober == "http" else { return "the \(prober) prober is not run by this exporter" }
        guard !http.notActedOn.isEmpty else { return nil }
        return "not run: " + http.notActedOn.map { "\($0.key): \($0.why)" }.joined(separator: "; ")
    }

    init(name: String, node: YAMLNode, reader: YAMLConfigReader) throws(YAMLConfigError) {
        self.name = name
        let fields = try reader.mapping(
            node, allowed: ["prober", "timeout", "http", "tcp", "icmp", "dns", "grpc"], in: "module \(name)")
        guard let proberNode = fields["prober"] else {
            throw reader.error(node, "module \(name) needs a prober (http, tcp, icmp, dns or grpc)")
        }
        prober = try reader.string(proberNode)
        guard ["http", "tcp", "icmp", "dns", "grpc"].contains(prober) else {
            throw reader.error(proberNode, "unknown prober '\(prober)': blackbox has http, tcp, icmp, dns and grpc")
        }
        if let timeoutNode = fields["timeout"] {
            let text = try reader.string(timeoutNode)
            guard let seconds = GoDuration.seconds(text) else {
                throw reader.error(timeoutNode, "timeout must be a duration such as 5s or 500ms, not '\(text)'")
            }
            // 0 is blackbox's "none set": the scrape's limit decides.
            timeout = seconds > 0 ? seconds : nil
        }
        http = HTTPModuleSettings()
        if let section = fields["http"] { http = try HTTPModuleSettings(node: section, reader: reader, module: name) }
    }
}

import YAML

/// An exporter's modules, read from blackbox_exporter's own config format (`blackbox.yml`):
/// `modules:` maps a name to a module with `prober`, `timeout` and a prober section. The `http`
/// prober is supported; modules of the other probers (`tcp`, `icmp`, `dns`, `grpc`) load and
/// are listed as unsupported, so blackbox's own example file loads unchanged.
///
/// Keys are blackbox's (config/config.go, and prometheus/common's `HTTPClientConfig` inlined in
/// `http:`). A key this exporter does not act on is an error naming it, never ignored.
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
    /// - Throws: ``ExporterConfigurationError`` with `file:line:column` for YAML that does not
    ///   parse, an unknown or unsupported key, or a value of the wrong kind.
    public init(parsing text: String, file: String) throws(ExporterConfigurationError) {
        let root: YAMLNode?
        do {
            root = try YAMLDocument.parse(text)
        } catch {
            throw ExporterConfigurationError(file: file, line: error.mark.line, column: error.mark.column, message: error.message)
        }
        let reader = ConfigReader(file: file)
        guard let root else {
            modules = []
            return
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

    /// Whether this exporter runs the module's prober.
    public var isSupported: Bool { prober == "http" }

    init(name: String, node: YAMLNode, reader: ConfigReader) throws(ExporterConfigurationError) {
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
            guard let seconds = GoDuration.seconds(text), seconds > 0 else {
                throw reader.error(timeoutNode, "timeout must be a duration such as 5s or 500ms, not '\(text)'")
            }
            timeout = seconds
        }
        http = HTTPModuleSettings()
        if let section = fields["http"] { http = try HTTPModuleSettings(node: section, reader: reader, module: name) }
    }
}

/// A config file problem at `file:line:column`.
public struct ExporterConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The config file as given.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// `FILE:LINE:COLUMN: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Reads YAML nodes as config values, with errors at their marks.
struct ConfigReader {
    let file: String

    func error(_ node: YAMLNode, _ message: String) -> ExporterConfigurationError {
        ExporterConfigurationError(file: file, line: node.mark.line, column: node.mark.column, message: message)
    }

    /// A mapping's pairs with string keys, in order.
    func pairs(_ node: YAMLNode, in place: String) throws(ExporterConfigurationError) -> [(key: YAMLNode, value: YAMLNode)] {
        if node.isNull { return [] }
        guard let mapping = node.mapping else { throw error(node, "\(place) must be a mapping") }
        for (key, _) in mapping where key.scalar == nil { throw error(key, "keys in \(place) must be strings") }
        return mapping
    }

    /// A mapping whose keys must be among `allowed`, by key.
    func mapping(
        _ node: YAMLNode, allowed: Set<String>, in place: String, unsupported: [String: String] = [:]
    ) throws(ExporterConfigurationError) -> [String: YAMLNode] {
        var fields: [String: YAMLNode] = [:]
        for (key, value) in try pairs(node, in: place) {
            let name = key.scalar ?? ""
            if let why = unsupported[name] { throw error(key, "\(name) in \(place) is not supported: \(why)") }
            guard allowed.contains(name) else {
                throw error(key, "unknown key '\(name)' in \(place) (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            fields[name] = value
        }
        return fields
    }

    func string(_ node: YAMLNode) throws(ExporterConfigurationError) -> String {
        guard let text = node.scalar, !node.isNull || node.scalarStyle?.isQuoted == true else {
            throw error(node, "expected a string")
        }
        return text
    }

    func bool(_ node: YAMLNode) throws(ExporterConfigurationError) -> Bool {
        switch node.scalar {
        case "true"?: return true
        case "false"?: return false
        default: throw error(node, "expected true or false")
        }
    }

    func strings(_ node: YAMLNode) throws(ExporterConfigurationError) -> [String] {
        if node.isNull { return [] }
        guard let items = node.sequence else { throw error(node, "expected a list") }
        var strings: [String] = []
        for item in items { strings.append(try string(item)) }
        return strings
    }
}

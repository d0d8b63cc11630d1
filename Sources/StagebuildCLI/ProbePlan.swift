import Foundation
import ProbeKit
import StageKit

/// A `stagebuild probe` command line turned into requests, settings and run options, with
/// every input checked before any call is made.
struct ProbePlan {
    var requests: [ProbeRequest]
    var settings: ProbeSettings
    var engineKind: ProbeEngineKind
    var format: ReportFormat
    var concurrency: Int
    var deadline: Double?
    var redactor: SecretRedactor

    /// Why a command line cannot run: a usage error (64), or a file that cannot be read (74).
    enum Failure: Error {
        case usage(UsageError)
        case unreadable(String)
    }

    init(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(Failure) {
        let environment = context.environment
        // Known secrets first, so that even error messages about other inputs are scrubbed.
        var redactor = SecretRedactor(secrets: [])
        func usage(_ message: String) -> Failure { .usage(UsageError(redactor.redact(message))) }
        do {
            if arguments.has("--validate-domain-name") && arguments.has("--no-validate-domain-name") {
                throw usage("choose one of --validate-domain-name and --no-validate-domain-name")
            }
            let headers = try arguments.all("--header").map { text throws(ProbeInputError) in try RequestHeader(parsing: text) }
            let pins = try arguments.all("--pinned-public-key").map { text throws(ProbeInputError) in
                try PublicKeyPin(parsing: text)
            }
            let resolve = try arguments.all("--resolve").map { text throws(ProbeInputError) in try ResolveEntry(parsing: text) }
            var expectations = Expectations()
            if let statuses = arguments.value("--expect-status") { expectations.statuses = try StatusList(parsing: statuses) }
            expectations.headers = try arguments.all("--expect-header").map { text throws(ProbeInputError) in
                try HeaderExpectation(parsing: text)
            }
            if let pattern = arguments.value("--expect-body") { expectations.body = try BodyPattern(pattern) }

            let repeats = try Self.count(arguments.value("--repeat"), option: "--repeat", default: 1, maximum: 100_000)
            concurrency = try Self.count(arguments.value("--concurrency"), option: "--concurrency", default: 8, maximum: 1_024)
            let connectTimeout = try Self.seconds(arguments.value("--connect-timeout"), option: "--connect-timeout")
            let maxTime = try Self.seconds(arguments.value("--max-time"), option: "--max-time")
            deadline = try Self.seconds(arguments.value("--deadline"), option: "--deadline")

            let formatText = arguments.value("--format") ?? "text"
            guard let format = ReportFormat(rawValue: formatText) else {
                throw usage("--format must be text, json or junit, not '\(formatText)'")
            }
            self.format = format
            let engineText = arguments.value("--engine") ?? "curl"
            guard let engineKind = ProbeEngineKind(rawValue: engineText) else {
                throw usage("--engine must be curl or urlsession, not '\(engineText)'")
            }
            self.engineKind = engineKind

            let cwd = context.currentDirectory
            var security = SecurityPolicy(
                validatesDomainName: !arguments.has("--no-validate-domain-name"),
                allowsInvalidCertificates: arguments.has("--allow-invalid-certificates"), pinnedPublicKeys: pins,
                proxyInsecure: arguments.has("--proxy-insecure"))
            security.caFile = try arguments.value("--cacert").map { path throws(Failure) in
                try Self.readableFile(path, option: "--cacert", from: cwd)
            }
            security.proxyCAFile = try arguments.value("--proxy-cacert").map { path throws(Failure) in
                try Self.readableFile(path, option: "--proxy-cacert", from: cwd)
            }
            settings = ProbeSettings(
                proxy: ProxyConfiguration(
                    proxy: arguments.value("--proxy"), noProxy: arguments.value("--noproxy"), environment: environment),
                forcesTunnel: arguments.has("--proxytunnel"), security: security, resolve: resolve,
                connectTimeout: connectTimeout, maxTime: maxTime)

            var texts = arguments.positionals
            if let targets = arguments.value("--targets") {
                texts += try Self.targetLines(targets, from: cwd)
            }
            // URL passwords and credential headers are known only once parsed; scrub with what
            // is known so far (the proxy passwords) while parsing.
            redactor = SecretRedactor.forRun(settings: settings, requests: [])
            redactor = SecretRedactor(
                secrets: redactor.secrets + headers.filter(\.isCredential).map(\.value) + texts.compactMap(Self.password(in:)))
            guard !texts.isEmpty else {
                throw usage(
                    arguments.value("--targets").map { "--targets \($0) holds no URL" }
                        ?? "give at least one URL, or --targets FILE")
            }
            let method = arguments.value("--request") ?? "GET"
            var requests: [ProbeRequest] = []
            for repetition in 1...repeats {
                for text in texts {
                    requests.append(
                        try ProbeRequest(
                            parsing: text, method: method, headers: headers, expectations: expectations,
                            repetition: repetition))
                }
            }
            self.requests = requests
            redactor = SecretRedactor.forRun(settings: settings, requests: requests)
            self.redactor = redactor
            // The route depends on the scheme and host only: each pair is checked once.
            var checkedHosts = Set<String>()
            for request in requests where checkedHosts.insert("\(request.isHTTPS) \(request.host)").inserted {
                do {
                    _ = try settings.route(for: request)
                } catch {
                    throw usage(error.description)
                }
            }
        } catch let error as ProbeInputError {
            throw usage(error.description)
        } catch let error as Failure {
            throw error
        } catch {
            throw usage("\(error)")
        }
    }

    /// A whole number from 1 to `maximum`, or `default` when not given.
    private static func count(_ text: String?, option: String, default value: Int, maximum: Int) throws(Failure) -> Int {
        guard let text else { return value }
        guard let number = Int(text), (1...maximum).contains(number) else {
            throw .usage(UsageError("\(option) must be a whole number from 1 to \(maximum), not '\(text)'"))
        }
        return number
    }

    /// Seconds above 0 (decimals allowed), or `nil` when not given.
    private static func seconds(_ text: String?, option: String) throws(Failure) -> Double? {
        guard let text else { return nil }
        guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
            throw .usage(UsageError("\(option) must be a number of seconds above 0, not '\(text)'"))
        }
        return number
    }

    /// The absolute path of a file that exists, can be read and holds a PEM certificate (as
    /// CURLOPT_CAINFO expects); otherwise the error would surface as a TLS failure of the server.
    private static func readableFile(_ path: String, option: String, from directory: String) throws(Failure) -> String {
        let absolute = Paths.absolute(path, from: directory)
        guard FileManager.default.isReadableFile(atPath: absolute), let data = FileManager.default.contents(atPath: absolute)
        else {
            throw .unreadable("cannot read \(option) \(path): no such readable file")
        }
        guard String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw .usage(UsageError("\(option) \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"))
        }
        return absolute
    }

    /// The URLs of a targets file (or standard input for `-`): one per line, blank lines and
    /// lines starting with `#` skipped, and a ` #` after a URL starting a comment (a URL never
    /// holds a raw space, so this cannot cut one).
    private static func targetLines(_ path: String, from directory: String) throws(Failure) -> [String] {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: Paths.absolute(path, from: directory))
        }
        guard let data, let text = String(data: data, encoding: .utf8) else {
            throw .unreadable("cannot read --targets \(path): no such readable UTF-8 file")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { line in
                // A URL with no `#` (most of them) is not searched for " #".
                let content =
                    line.utf8.contains(UInt8(ascii: "#"))
                    ? line.range(of: " #").map { line[..<$0.lowerBound] } ?? line[...] : line[...]
                return content.trimmingCharacters(in: .whitespaces)
            }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The password of a URL text's user info, as written, for scrubbing error messages.
    private static func password(in text: String) -> String? {
        guard let url = URL(string: text) else { return nil }
        return url.password(percentEncoded: false)
    }
}

import Curl
import Digests
import Foundation
import ProbeKit
import StageKit

/// A `stagebuild probe` command line turned into requests, settings and run options, with
/// every input checked before any call is made.
struct ProbePlan {
    /// The URLs as given, each checked: a request is made from one only when its call's turn
    /// comes (``request(for:repetition:)``), so a run's memory does not hold a million parsed requests.
    var targets: TargetList
    /// Whether `--targets -` is read while the run goes on (``ProbeCalls``): standard input is
    /// a pipe, FIFO or terminal, and `-` is the last `--targets`. Its lines are not in
    /// ``targets`` and are checked one by one as their calls come.
    var streamsStandardInput = false
    /// How often each target is called (`--repeat`): all targets, then all again.
    var repeats = 1
    var method = "GET"
    var headers: [RequestHeader] = []
    var expectations = Expectations()
    var settings: ProbeSettings
    var engineKind: ProbeEngineKind
    var format: ReportFormat
    var concurrency: Int
    var deadline: Double?
    /// `--pac-only`: print the PAC script's answer for each target, make no call.
    var pacOnly = false
    /// Options that take no effect on these calls, said once on stderr before the run.
    var warnings: [String] = []

    init(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) {
        do {
            if arguments.has("--validate-domain-name") && arguments.has("--no-validate-domain-name") {
                throw Self.usage("choose one of --validate-domain-name and --no-validate-domain-name")
            }
            headers = try arguments.all("--header").map { text throws(ProbeInputError) in try RequestHeader(parsing: text) }
            expectations = try Self.expectations(arguments)
            repeats = try Self.count(arguments.value("--repeat"), option: "--repeat", default: 1, maximum: 100_000)
            concurrency = try Self.count(arguments.value("--concurrency"), option: "--concurrency", default: 8, maximum: 1_024)
            deadline = try SecondsOption.parse(arguments.value("--deadline"), option: "--deadline")
            format = try arguments.choice("--format", default: ReportFormat.text)
            engineKind = try arguments.choice("--engine", default: ProbeEngineKind.curl)
            settings = try Self.settings(arguments, context: context)
            pacOnly = arguments.has("--pac-only")
            if engineKind == .urlsession, arguments.value("--pac") != nil || arguments.has("--wpad") {
                throw Self.usage(
                    "a PAC script is followed by the curl engine only: FoundationNetworking on Linux has no PAC "
                        + "support (swift-corelibs-foundation#5199)")
            }
            settings.pac = try PACOptions.settings(arguments, settings: settings, deadline: deadline, context: context)
            // Input that may arrive for a long time is read as the run goes on; anything
            // after it on the command line would wait for its end, so only a last `-` is.
            streamsStandardInput = arguments.all("--targets").last == "-" && context.standardInputIsStream
            targets = try Self.targets(arguments, context: context, streamsStandardInput: streamsStandardInput)
            method = arguments.value("--request") ?? "GET"
            if streamsStandardInput {
                // No target may be checked before the run: the method all calls share is.
                _ = try ProbeRequest(parsing: "http://localhost/", method: method)
            }
            if method == "HEAD" && expectations.body != nil {
                throw Self.usage("-X HEAD fetches no body, so --expect-body can never match: leave one of them out")
            }
            warnings = try checkRoutes()
        } catch let error as ProbeInputError {
            throw Self.usage(error.description)
        } catch let error as CommandFailure {
            // Bad data quotes the input: URLs in it lose their user info.
            guard error.exitCode == .dataError else { throw error }
            throw .error(.dataError, Redaction.text(error.message))
        } catch {
            throw Self.usage("\(error)")
        }
    }

    /// A usage failure. Messages name inputs through Redaction already; URLs that libcurl or
    /// Foundation quote back lose their user info here too.
    private static func usage(_ message: String) -> CommandFailure { .usage(Redaction.text(message)) }

    /// `--expect-status`, `--expect-header`, `--expect-body` and `--body-size-limit`.
    private static func expectations(_ arguments: ArgumentScanner.Arguments) throws -> Expectations {
        var expectations = Expectations()
        if let statuses = arguments.value("--expect-status") { expectations.statuses = try StatusList(parsing: statuses) }
        expectations.headers = try arguments.all("--expect-header").map { text throws(ProbeInputError) in
            try HeaderExpectation(parsing: text)
        }
        if let pattern = arguments.value("--expect-body") { expectations.body = try BodyPattern(pattern) }
        if let text = arguments.value("--body-size-limit") {
            guard let limit = ByteCount.parse(text) else {
                throw CommandFailure.usage(
                    "--body-size-limit takes a size in bytes, with k, M or G for 1024-based units (e.g. 64M), not '\(text)'")
            }
            expectations.bodySizeLimit = limit == 0 ? nil : limit
        }
        return expectations
    }

    /// The settings every call shares: the TLS policy and its files, the proxy and its
    /// authentication, timeouts, `--resolve`, the user agent, proxy headers, tracing,
    /// redirects and the Apple clients to judge.
    private static func settings(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws -> ProbeSettings {
        let pins = try arguments.all("--pinned-public-key").map { text throws(ProbeInputError) in
            try PublicKeyPin(parsing: text)
        }
        let resolve = try arguments.all("--resolve").map { text throws(ProbeInputError) in try ResolveEntry(parsing: text) }
        let connectTimeout = try SecondsOption.parse(arguments.value("--connect-timeout"), option: "--connect-timeout")
        let maxTime = try SecondsOption.parse(arguments.value("--max-time"), option: "--max-time")
        let insecure = arguments.has("--insecure")
        if insecure && arguments.has("--validate-domain-name") {
            throw usage("choose one of --insecure (-k) and --validate-domain-name")
        }
        var security = SecurityPolicy(
            validatesDomainName: !(arguments.has("--no-validate-domain-name") || insecure),
            allowsInvalidCertificates: arguments.has("--allow-invalid-certificates") || insecure, pinnedPublicKeys: pins,
            proxyInsecure: arguments.has("--proxy-insecure"))
        security.caFile = try arguments.value("--cacert").map { path throws(CommandFailure) in
            try NetworkOptions.certificateFile(path, option: "--cacert", context: context)
        }
        security.proxyCAFile = try arguments.value("--proxy-cacert").map { path throws(CommandFailure) in
            try NetworkOptions.certificateFile(path, option: "--proxy-cacert", context: context)
        }
        var settings = ProbeSettings(
            proxy: ProxyConfiguration(
                proxy: arguments.value("--proxy"), noProxy: arguments.value("--noproxy"), environment: context.environment),
            forcesTunnel: arguments.has("--proxytunnel"), security: security, resolve: resolve,
            connectTimeout: connectTimeout, maxTime: maxTime)
        settings.proxyAuthentication = try ProxyAuthenticationOptions.choice(arguments)
        settings.userAgent = arguments.value("--user-agent") ?? "stagebuild/\(StagebuildCommand.version)"
        // A value is one header line: CR or LF would add lines to the request and to CONNECT.
        guard !settings.userAgent.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw usage("invalid -A: the value may not contain CR, LF or NUL")
        }
        settings.proxyHeaders = try arguments.all("--proxy-header").map { text throws(ProbeInputError) in
            try RequestHeader(parsing: text, option: "--proxy-header")
        }
        if let text = arguments.value("--proxy-user") {
            guard let colon = text.firstIndex(of: ":") else {
                throw usage("--proxy-user takes USER:PASSWORD (curl would ask for the password; the probe does not)")
            }
            if let given = arguments.value("--proxy"),
                (try? ProxyServer(parsing: given, source: .option("--proxy")))?.credentials != nil
            {
                throw usage("--proxy already carries credentials: give them once, there or in --proxy-user")
            }
            settings.proxyUser = ProxyCredentials(
                user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        settings.connectTo = try arguments.all("--connect-to").map { text throws(CommandFailure) in
            try connectTo(text)
        }
        settings.collectsTrace = arguments.has("--verbose")
        settings.followsRedirects = arguments.has("--location")
        settings.comparesDirect = arguments.has("--compare-direct")
        var chosen: [AppleClient] = []
        for text in arguments.all("--client") {
            guard let client = AppleClient(option: text) else {
                throw usage("--client is urlsession, afnetworking3, afnetworking4 or alamofire5, not '\(text)'")
            }
            // Each stack once, in the order first asked for.
            if !chosen.contains(client) { chosen.append(client) }
        }
        if !chosen.isEmpty { settings.appleClients = chosen }
        settings.appleDevice.installedRootFiles = try arguments.all("--device-ca").map { path throws(CommandFailure) in
            try NetworkOptions.certificateFile(path, option: "--device-ca", context: context)
        }
        settings.appleDevice.atsException = arguments.has("--ats-exception")
        if let text = arguments.value("--max-redirs") {
            guard let count = Int(text), (0...1_000).contains(count) else {
                throw usage("--max-redirs must be a whole number from 0 to 1000, not '\(text)'")
            }
            settings.maxRedirects = count
        }
        return settings
    }

    /// A `--connect-to HOST1:PORT1:HOST2:PORT2` value as curl takes it (`CURLOPT_CONNECT_TO`):
    /// four parts, IPv6 hosts in brackets, the first host and port may be empty (any), the
    /// ports numbers; one line of text.
    private static func connectTo(_ text: String) throws(CommandFailure) -> String {
        var parts: [String] = []
        var part = ""
        var inBrackets = false
        for character in text {
            if character == "[" { inBrackets = true } else if character == "]" { inBrackets = false }
            if character == ":" && !inBrackets {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        func isPort(_ text: String, mayBeEmpty: Bool) -> Bool {
            (mayBeEmpty && text.isEmpty) || (Int(text).map { (1...65_535).contains($0) } ?? false)
        }
        guard parts.count == 4, isPort(parts[1], mayBeEmpty: true), !parts[2].isEmpty, isPort(parts[3], mayBeEmpty: false),
            !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else {
            throw usage("invalid --connect-to \"\(text)\": write it as HOST1:PORT1:HOST2:PORT2, as curl's --connect-to")
        }
        return text
    }

    /// The URLs of the command line, then those of each `--targets` file, in order.
    ///
    /// - Parameter streamsStandardInput: whether the last `--targets` is `-` on a stream, whose
    ///   lines ``ProbeCalls`` reads while the run goes on: it is left out here.
    private static func targets(
        _ arguments: ArgumentScanner.Arguments, context: CommandContext, streamsStandardInput: Bool
    ) throws -> TargetList {
        let targetFiles = arguments.all("--targets")
        guard targetFiles.filter({ $0 == "-" }).count <= 1 else {
            throw usage("--targets - reads standard input, which can be read once: give it once")
        }
        var targets = TargetList()
        for positional in arguments.positionals { targets.append(commandLine: positional) }
        for file in targetFiles.dropLast(streamsStandardInput ? 1 : 0) {
            try Self.readTargets(in: file, context: context, into: &targets)
        }
        guard !targets.isEmpty || streamsStandardInput else {
            guard targetFiles.isEmpty else {
                throw CommandFailure.error(.dataError, "--targets \(targetFiles.joined(separator: ", ")) holds no URL")
            }
            throw usage("give at least one URL, or --targets FILE")
        }
        return targets
    }

    /// Checks every target and its route before the run, and says which options take no effect.
    /// Each target is checked once (repetitions share it); the route depends on the scheme and
    /// host only, so each pair is checked once.
    ///
    /// - Returns: The warnings for options that take no effect on these calls.
    private func checkRoutes() throws -> [String] {
        var checkedHosts = Set<String>()
        var anyThroughProxy = false
        let scan = targets.scanShapes()
        var anyPlainHTTP = scan.anyPlainHTTP
        for (index, plain) in scan.events {
            let isHTTPS: Bool
            let host: String
            // The common shape needs no full parse here (nor a String); every other URL gets
            // one, and so does the first (it also checks the method the run shares).
            if let plain {
                (isHTTPS, host) = (plain.isHTTPS, plain.host)
            } else {
                let target = targets[index]
                let request: ProbeRequest
                do {
                    request = try ProbeRequest(
                        parsing: target.text, method: method, headers: headers, expectations: expectations)
                } catch {
                    // A line of a targets file is data: say where it is.
                    guard let origin = target.origin else { throw error }
                    throw CommandFailure.error(.dataError, "\(origin): \(error)")
                }
                (isHTTPS, host) = (request.isHTTPS, request.host)
                anyPlainHTTP = anyPlainHTTP || !isHTTPS
            }
            // With a PAC script the route is its answer, per call.
            guard settings.pac == nil, checkedHosts.insert("\(isHTTPS) \(host)").inserted else { continue }
            do {
                anyThroughProxy =
                    try settings.proxy.route(scheme: isHTTPS ? "https" : "http", host: host).server != nil || anyThroughProxy
            } catch {
                throw Self.usage(error.description)
            }
        }
        var warnings: [String] = []
        if !settings.security.pinnedPublicKeys.isEmpty, anyPlainHTTP {
            warnings.append("--pinned-public-key applies to https:// targets only; the http:// ones are not pinned")
        }
        // Streamed targets are not known yet: they may go through one.
        if settings.forcesTunnel && !anyThroughProxy && !streamsStandardInput && settings.pac == nil {
            warnings.append("--proxytunnel has no effect: no call goes through a proxy")
        }
        return warnings
    }

    /// The request of a call.
    ///
    /// - Parameters:
    ///   - target: the URL as given.
    ///   - repetition: 1 for the first call of the target, 2 for the next with `--repeat`, …
    /// - Returns: The request, or a failed record when it does not parse: a line of streamed
    ///   standard input, which no check saw before the run (every other target was checked).
    func request(for target: TargetList.Target, repetition: Int) -> Result<ProbeRequest, ProbeResultFailure> {
        do {
            return .success(
                try ProbeRequest(
                    parsing: target.text, method: method, headers: headers, expectations: expectations,
                    repetition: repetition))
        } catch {
            let reason = FailureReason.targetUnparsable(
                target.origin.map { "\($0): \(error.description)" } ?? error.description)
            return .failure(
                ProbeResultFailure(
                    result: ProbeResult(
                        target: Redaction.malformedURL(target.text), method: method, repetition: repetition,
                        engine: "probe", route: nil, outcome: .failed(reason), message: reason.message)))
        }
    }

    /// The compact record of a call the run never started: no request is parsed for it.
    ///
    /// - Parameters:
    ///   - target: the URL as given.
    ///   - repetition: 1 for the first call of the target, 2 for the next with `--repeat`, …
    ///   - cause: Why the run ended.
    ///   - engine: The engine's name.
    ///   - message: `not started: CAUSE`, made once for the run.
    func notStarted(
        for target: TargetList.Target, repetition: Int, cause: CancellationCause, engine: String, message: String
    ) -> ProbeResult {
        var result = ProbeResult(
            target: Redaction.url(target.text), method: method, repetition: repetition, engine: engine, route: nil,
            outcome: .cancelled(cause), message: message)
        result.started = false
        return result
    }

    /// A whole number from 1 to `maximum`, or `default` when not given.
    private static func count(_ text: String?, option: String, default value: Int, maximum: Int) throws(CommandFailure) -> Int {
        guard let text else { return value }
        guard let number = Int(text), (1...maximum).contains(number) else {
            throw CommandFailure.usage(("\(option) must be a whole number from 1 to \(maximum), not '\(text)'"))
        }
        return number
    }

    /// Reads a targets file (or standard input for `-`) into the list; see
    /// ``TargetList/append(linesOf:file:)`` for its lines.
    private static func readTargets(
        in path: String, context: CommandContext, into targets: inout TargetList
    ) throws(CommandFailure) {
        let text: String
        do {
            if path == "-" {
                var bytes: [UInt8] = []
                while case let chunk = context.readStandardInput(1 << 20), !chunk.isEmpty { bytes += chunk }
                text = try LintSourceText.decode(bytes)
            } else {
                text = try context.fileSystem.readText(at: Paths.absolute(path, from: context.currentDirectory))
            }
        } catch let error as LintSourceText.InvalidUTF8 {
            throw .error(
                .dataError, "cannot read --targets <stdin>: \(error.message) (line \(error.line), column \(error.column))")
        } catch let error as FileSystemError {
            throw .unreadable("--targets \(path)", error)
        } catch {
            throw .error(.ioError, "cannot read --targets \(path): \(error)")
        }
        do {
            try targets.append(linesOf: text, file: path == "-" ? "<stdin>" : path)
        } catch {
            throw .error(.dataError, "--targets \(path): the targets files hold more than 4 GiB of URLs")
        }
    }
}

import Curl
import Dispatch
import Foundation
import ProbeKit
import SanityServer
import StageKit
import Synchronization

/// `stagebuild probe`: checks HTTP(S) calls through a proxy (or directly) with a TLS security
/// policy, and reports each as succeeded, failed (why, at which hop, which switch changes it)
/// or cancelled.
enum ProbeCommand: Subcommand {
    static let name = "probe"
    static let summary = "Check HTTP(S) calls through a proxy; say which check failed and why."
    static let usage = """
        probe [--proxy URL] [--pac FILE|URL] [--noproxy LIST] [--proxytunnel] [--no-validate-domain-name] \
        [--allow-invalid-certificates] [--cacert FILE] [--pinned-public-key sha256//B64]... \
        [--expect-status LIST] [-X METHOD] [-H 'Name: value']... [--targets FILE|-] \
        [--format text|json|junit] [--engine curl|urlsession] [--client STACK]... [--compare-direct] URL...
        """
    static let discussion = """
        Makes one call per URL (and per --repeat) and reports it as succeeded, failed or
        cancelled. A failure names its reason (a stable code such as hostNameMismatch or
        proxyAuthenticationRequired), the hop where it happened (proxy or target), the error an
        app on Apple platforms would get (URLError, e.g. -1202 serverCertificateUntrusted), and
        the switch that changes the result.

        Proxy: --proxy (-x), else the environment as curl reads it: http_proxy (lower case only),
        https_proxy/HTTPS_PROXY, all_proxy/ALL_PROXY; NO_PROXY/no_proxy or --noproxy send hosts
        around it. --proxy "" goes direct. https:// targets always go through a CONNECT tunnel.
        A proxy's 407 is answered with Basic, as curl does; --proxy-digest, --proxy-ntlm,
        --proxy-negotiate or --proxy-anyauth choose another scheme. When the proxy offers none
        the probe answers with, the report says so rather than doubting the password.

        PAC: --pac FILE|URL routes each call as a device with that proxy auto-config script does
        (libpacparser runs it; a URL is fetched directly, never through a proxy). The answer's
        entries (PROXY, HTTPS, DIRECT) are tried in order: a proxy that is down, silent or fails
        TLS is left for the next, as browsers leave it; one that answers (403, 407) ends the list.
        The report names the answer, the entry that carried the call and why each one before it
        was left. --pac-only prints the answer per URL and makes no call; --pac-my-address sets
        myIpAddress(). --resolve names are what the script's dnsResolve and isInNet see. A script
        that throws, runs past 5 s or 256 MiB, or answers nothing usable fails the call (pacFailed).

        TLS: the chain and the host name are verified by default. --no-validate-domain-name
        still verifies the chain but not the name (the report warns); --allow-invalid-certificates
        accepts any chain; -k/--insecure does both, as curl's. An app that gets "-999 cancelled" behind a proxy usually met a
        certificate without the host's name: the report says which names it carries.

        Time: --connect-timeout bounds connecting (proxy, its CONNECT answer, TLS handshake);
        --max-time bounds each call, the --expect-body match included; --deadline bounds the whole
        run from the command's start, reading --targets included.
        Ctrl-C (SIGINT), SIGTERM or SIGHUP cancels the run: calls in flight and not started are
        reported cancelled, and the report is written.

        Targets files are checked whole before the first call. With a last --targets - on a
        pipe, FIFO or terminal, each line is probed as it arrives (a line that is no URL is
        reported failed in its place), and --repeat starts over when input ends. Each call's
        report is written when it ends, also into a pipe or a file.

        Secrets never appear in any output: URL and proxy passwords (and user names given
        alone, which are tokens), also in URLs nested in a query; the values of Authorization,
        Proxy-Authorization, Cookie, Set-Cookie and of fields whose name has a part naming a
        key, token, secret, password, session, credential, signature or auth (X-Api-Key,
        X-Auth-Token); and query values such as X-Amz-Signature, sig, access_token, code and
        api_key. Each is replaced by *** where it stands. The JSON fields are documented in docs/probe-json.md.

        Exit status: 0 all calls succeeded, 1 a call failed or was cancelled by --deadline,
        64 usage, 65 a --targets, CA or PAC file that is not usable text (a script that fails
        fails each call: pacFailed), 69 a PAC script that could not be fetched (--pac URL, --wpad;
        --pac-only exits 1 when a URL got no usable answer), 74 a file not readable,
        129 hung up (SIGHUP), 130 interrupted (SIGINT), 143 terminated (SIGTERM).
        """
    /// How the call reaches the proxy; the authentication options follow them in `--help`.
    static let proxyOptions =
        [
            NetworkOptions.proxy,
            NetworkOptions.noProxy,
            ArgumentScanner.Option(
                names: ["--proxytunnel"], takesValue: false, help: "Use a CONNECT tunnel also for http:// targets."),
        ] + PACOptions.options
    static let options =
        proxyOptions + ProxyAuthenticationOptions.options + [
            ArgumentScanner.Option(
                names: ["--validate-domain-name"], takesValue: false,
                help: "Check that the certificate names the host (the default)."),
            ArgumentScanner.Option(
                names: ["--no-validate-domain-name"], takesValue: false,
                help: "Do not check the host name; the chain is still verified, the report warns."),
            ArgumentScanner.Option(
                names: ["-k", "--insecure"], takesValue: false,
                help:
                    "As curl: check neither the chain nor the name (both --allow-invalid-certificates and --no-validate-domain-name)."
            ),
            ArgumentScanner.Option(
                names: ["--allow-invalid-certificates"], takesValue: false,
                help: "Accept any certificate chain (untrusted, expired); the name is still checked."),
            NetworkOptions.caCertificates,
            ArgumentScanner.Option(
                names: ["--pinned-public-key"], takesValue: true, valueName: "sha256//BASE64",
                help: "The target's public key must be one of these (repeatable)."),
            ArgumentScanner.Option(
                names: ["--proxy-cacert"], takesValue: true, valueName: "FILE",
                help: "Trust the CA certificates in this PEM file for an https:// proxy."),
            ArgumentScanner.Option(
                names: ["--proxy-insecure"], takesValue: false, help: "Do not verify an https:// proxy's certificate."),
            ArgumentScanner.Option(
                names: ["--resolve"], takesValue: true, valueName: "HOST:PORT:ADDR",
                help: "Connect to ADDR for HOST:PORT instead of asking DNS (repeatable)."),
            NetworkOptions.connectTimeout,
            NetworkOptions.maxTime,
            ArgumentScanner.Option(
                names: ["--deadline"], takesValue: true, valueName: "SECONDS",
                help: "Limit for the whole run; calls not done by then are cancelled."),
            ArgumentScanner.Option(
                names: ["--expect-status"], takesValue: true, valueName: "LIST",
                help: "Statuses that succeed, e.g. 200,301-308 (default 200-399)."),
            ArgumentScanner.Option(
                names: ["--expect-header"], takesValue: true, valueName: "NAME[=VALUE]",
                help: "The response must have this header, with this exact value if given (repeatable)."),
            ArgumentScanner.Option(
                names: ["--expect-body"], takesValue: true, valueName: "REGEX",
                help: "The body must match this regular expression (RE2 syntax, as Go and blackbox_exporter; linear time)."),
            ArgumentScanner.Option(
                names: ["--body-size-limit"], takesValue: true, valueName: "SIZE",
                help:
                    "The largest body --expect-body reads whole (default 64M; 0 for none); with --expect-body, a longer one fails the call."
            ),
            ArgumentScanner.Option(
                names: ["-X", "--request"], takesValue: true, valueName: "METHOD",
                help: "The request method (default GET; HEAD fetches no body)."),
            ArgumentScanner.Option(
                names: ["-H", "--header"], takesValue: true, valueName: "'NAME: VALUE'",
                help: "Add a request header (repeatable)."),
            ArgumentScanner.Option(
                names: ["--proxy-header"], takesValue: true, valueName: "'NAME: VALUE'",
                help: "Add a header for the proxy only, sent with CONNECT (repeatable)."),
            ArgumentScanner.Option(
                names: ["-A", "--user-agent"], takesValue: true, valueName: "TEXT",
                help: "The User-Agent, also on CONNECT (default stagebuild/VERSION)."),
            ArgumentScanner.Option(
                names: ["-L", "--location"], takesValue: false,
                help: "Follow redirects (3xx with Location); the report lists each one."),
            ArgumentScanner.Option(
                names: ["--max-redirs"], takesValue: true, valueName: "N",
                help: "The most redirects -L follows (default 50, as curl)."),
            ArgumentScanner.Option(
                names: ["--client"], takesValue: true, valueName: "STACK",
                help:
                    "Apple client verdicts to show: urlsession, afnetworking3, afnetworking4, alamofire5 (repeatable; default all)."
            ),
            ArgumentScanner.Option(
                names: ["--device-ca"], takesValue: true, valueName: "FILE",
                help:
                    "A root installed and fully trusted on the device the Apple verdicts are for (PEM; repeatable); "
                    + "else only Mozilla's roots, standing for Apple's, and --cacert."
            ),
            ArgumentScanner.Option(
                names: ["--ats-exception"], takesValue: false,
                help: "The app's Info.plist excepts the host from App Transport Security (for the Apple verdicts)."),
            ArgumentScanner.Option(
                names: ["--compare-direct"], takesValue: false,
                help:
                    "Through a proxy, also shake hands with an https:// target directly: another certificate is an interceptor's."
            ),
            ArgumentScanner.Option(
                names: ["-U", "--proxy-user"], takesValue: true, valueName: "USER:PASSWORD",
                help: "Credentials for a proxy given without them (the environment's, a PAC script's entries), as curl's."),
            ArgumentScanner.Option(
                names: ["--connect-to"], takesValue: true, valueName: "HOST1:PORT1:HOST2:PORT2",
                help: "Connect to HOST2:PORT2 for calls to HOST1:PORT1, as curl's (the URL, Host and TLS name stay; repeatable)."),
            ArgumentScanner.Option(
                names: ["-v", "--verbose"], takesValue: false,
                help: "Print each call's libcurl trace on stderr, as curl -v (credentials redacted)."),
            ArgumentScanner.Option(
                names: ["--targets"], takesValue: true, valueName: "FILE",
                help: "Read more URLs from FILE, one per line, # comments ('-': standard input; repeatable)."),
            ArgumentScanner.Option(
                names: ["--repeat"], takesValue: true, valueName: "N", help: "Probe every URL N times (default 1)."),
            ArgumentScanner.Option(
                names: ["--concurrency"], takesValue: true, valueName: "N", help: "Calls at once (default 8)."),
            ArgumentScanner.Option(
                names: ["--format"], takesValue: true, valueName: "FORMAT", help: "text (default), json or junit."),
            ArgumentScanner.Option(
                names: ["--engine"], takesValue: true, valueName: "ENGINE",
                help: "curl (default) or urlsession (what a Swift app on Linux sees)."),
        ]

    static func run(_ arguments: ArgumentScanner.Arguments, context: CommandContext) throws(CommandFailure) -> ExitCode {
        let start = ContinuousClock.now
        let plan = try ProbePlan(arguments, context: context)
        for warning in plan.warnings { context.warn(warning) }
        if plan.pacOnly, let pac = plan.settings.pac { return try PACOnlyRun.run(plan, pac: pac, context: context) }
        let engine: any ProbeEngine
        switch plan.engineKind {
        case .curl:
            engine = CurlProbeEngine(settings: plan.settings)
        case .urlsession:
            do {
                engine = try URLSessionProbeEngine(settings: plan.settings)
            } catch {
                throw CommandFailure.usage(Redaction.text(error.description))
            }
        }
        let runner = ProbeRunner(engine: engine, concurrency: plan.concurrency, deadline: plan.deadline, start: start)
        let interruption =
            context.handlesInterrupts
            ? InterruptHandler { received in
                switch ExitCode(signal: received) {
                case .terminated: runner.cancel(.terminated)
                case .hungUp: runner.cancel(.hungUp)
                default: runner.cancel(.interrupted)
                }
            } : nil
        let calls = ProbeCalls(plan: plan)
        calls.start(reading: context.readStandardInput)
        let showsProgress = context.standardError.isTerminal
        var progress: (@Sendable (ProbeProgress) -> Void)?
        if showsProgress {
            let standardError = context.standardError
            progress = { step in
                // The target is already redacted where it stands (ProbeRequest.target).
                standardError.write(
                    "\r\u{1B}[K[\(step.completed)/\(step.total)] \(step.result.outcome.name) \(step.result.target)")
            }
        }

        let colored = plan.format == .text && context.usesColor(on: context.standardOutput)
        // The report is written as each call ends, in request order: memory grows with
        // --concurrency, not with the number of targets.
        let output = ReportOutput(stream: ReportStream(format: plan.format, colored: colored), context: context)
        let started = ContinuousClock.now
        let engineName = engine.name
        runner.run(
            source: calls,
            notStarted: { indices, cause in
                // One cause ends a run: its words are made once, not once per call.
                let message = "not started: \(cause)"
                output.append(notStarted: indices, showsProgress: showsProgress) {
                    calls.notStarted(at: $0, cause: cause, engine: engineName, message: message)
                }
            }, progress: progress,
            deliver: { output.append($0.redacted(), showsProgress: showsProgress) })
        let elapsed = ContinuousClock.now - started
        interruption?.stop()
        if showsProgress { context.standardError.write("\r\u{1B}[K") }
        let seconds = elapsed.inSeconds
        let summary = output.finish(elapsed: seconds)
        if let failure = calls.failure { throw CommandFailure.error(.dataError, failure) }
        if calls.isEmpty { throw CommandFailure.error(.dataError, "--targets - holds no URL") }
        let cause = runner.cancellation.cause
        let cutAfter = calls.lastLineBeforeCut
        if let line = cutAfter, let cause {
            context.warn("stopped reading --targets - after line \(line): \(cause)")
        }
        switch cause {
        case .interrupted: return .interrupted
        case .terminated: return .terminated
        case .hungUp: return .hungUp
        default:
            // Targets never read are calls never made, as those a --deadline left unstarted.
            return summary.allSucceeded && cutAfter == nil ? .success : .checkFailed
        }
    }
}

/// The report on its way to standard output: each result's text is written when the result
/// comes, so a pipe, a file followed with `tail -f` or a CI log gets each call as it ends and
/// a run killed with SIGKILL keeps every call that had ended; `-v` traces go to standard error
/// before the call's report text.
private final class ReportOutput: Sendable {
    private let state: Mutex<(stream: ReportStream, buffer: [UInt8])>
    private let context: CommandContext

    init(stream: ReportStream, context: CommandContext) {
        state = Mutex((stream, []))
        self.context = context
    }

    /// Takes the next result in request order.
    func append(_ result: ProbeResult, showsProgress: Bool) {
        if let trace = result.trace, !trace.isEmpty {
            context.standardError.write("* stagebuild probe: \(result.method) \(result.target)\n\(trace)\n")
        }
        state.withLock { state in
            state.stream.append(result, to: &state.buffer)
            // JUnit's document is written whole at the end.
            guard !state.buffer.isEmpty else { return }
            // The progress line on a terminal goes before the report text reaches it.
            if showsProgress { context.standardError.write("\r\u{1B}[K") }
            context.standardOutput.write(utf8: state.buffer)
            state.buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Takes the calls the run never started, at the end: rendered on all cores in windows of
    /// 65,536 records, so their text never has to be held all at once.
    ///
    /// - Parameters:
    ///   - indices: The calls' indices.
    ///   - showsProgress: Whether a progress line is on the terminal.
    ///   - record: The compact record of a call by its index.
    func append(notStarted indices: Range<Int>, showsProgress: Bool, record: @escaping @Sendable (Int) -> ProbeResult) {
        for start in stride(from: indices.lowerBound, to: indices.upperBound, by: 65_536) {
            let end = min(start + 65_536, indices.upperBound)
            state.withLock { state in
                state.stream.append(count: end - start, result: { record(start + $0) }, to: &state.buffer)
                if showsProgress { context.standardError.write("\r\u{1B}[K") }
                context.standardOutput.write(utf8: state.buffer)
                state.buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes the rest of the report.
    ///
    /// - Returns: The outcomes of the run.
    func finish(elapsed: Double) -> ProbeSummary {
        state.withLock { state in
            state.buffer += state.stream.finish(elapsed: elapsed).utf8
            context.standardOutput.write(utf8: state.buffer)
            state.buffer = []
            return state.stream.summary
        }
    }
}

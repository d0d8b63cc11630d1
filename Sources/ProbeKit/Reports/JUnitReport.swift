import Serialization

/// The JUnit XML report: one `<testsuite>` with one `<testcase>` per call, as CI systems
/// (Jenkins, GitLab, GitHub annotations) read it.
///
/// A failed call has a `<failure type="REASON" message="...">` with the details as text; a call
/// cancelled by `--deadline` is an `<error type="cancelled" message="..."/>`, as the run fails
/// with it (exit status 1); one cancelled otherwise (SIGINT, exit status 130) is
/// `<skipped message="..."/>`; warnings go to `<system-out>`. Every text is escaped for XML 1.0;
/// characters XML cannot carry (control characters) become U+FFFD.
public struct JUnitReport: Sendable {
    /// A report.
    public init() {}

    /// The report, with a trailing newline.
    ///
    /// `<testsuites>` and `<testsuite>` carry the run's elapsed time (what CI reporters show as
    /// the suite's duration): concurrent calls overlap, so it is not their sum. Each
    /// `<testcase time>` is the call's own time.
    ///
    /// - Parameters:
    ///   - results: a run's results, already redacted.
    ///   - elapsed: the run's wall-clock duration in seconds; `nil` takes the longest call.
    /// - Returns: the XML text.
    public func render(_ results: [ProbeResult], elapsed: Double? = nil) -> String {
        var stream = ReportStream(format: .junit)
        for result in results { _ = stream.append(result) }
        return stream.finish(elapsed: elapsed)
    }

    /// The whole document around test cases already written.
    ///
    /// - Parameters:
    ///   - cases: The `<testcase>` elements in order.
    ///   - summary: The outcomes counted.
    ///   - errors: How many cancelled calls count as errors (``isError(_:)``).
    ///   - seconds: The run's duration.
    static func document(cases: String, summary: ProbeSummary, errors: Int, seconds: Double) -> String {
        let counts =
            "tests=\"\(summary.total)\" failures=\"\(summary.failed)\" errors=\"\(errors)\" "
            + "skipped=\"\(summary.cancelled - errors)\" time=\"\(Self.seconds(seconds))\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"stagebuild probe\" \(counts)>\n"
        xml += "  <testsuite name=\"stagebuild probe\" \(counts)>\n"
        xml += cases
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    func testCase(_ result: ProbeResult) -> String {
        var name = "\(result.method) \(result.target)"
        if result.repetition > 1 { name += " #\(result.repetition)" }
        let time = Self.seconds((result.timings?.total ?? 0) / 1000)
        let open =
            "    <testcase classname=\"stagebuild.probe.\(MarkupText.escaped(result.engine))\" name=\"\(MarkupText.escaped(name))\" time=\"\(time)\""
        var inner = ""
        // One property per Apple client stack (JUnit's testcase <properties>, as the Ant schema has it).
        if !result.appleClients.isEmpty {
            inner += "      <properties>\n"
            for verdict in result.appleClients {
                let value =
                    verdict.succeeded
                    ? "succeeded"
                    : (["failed", verdict.errorCode.map(String.init)] + [verdict.errorCase]).compactMap { $0 }.joined(
                        separator: " ")
                inner +=
                    "        <property name=\"apple.\(MarkupText.escaped(verdict.client.rawValue))\" value=\"\(MarkupText.escaped(value))\"/>\n"
            }
            inner += "      </properties>\n"
        }
        // A line of a block (no label of its own) goes under the block's label.
        var label = ""
        let details = TextReport.detailLines(result).map { line in
            if !line.0.isEmpty { label = line.0 }
            return "\(label): \(line.1)"
        }.joined(separator: "\n")
        switch result.outcome {
        case .succeeded:
            break
        case .failed(let reason):
            inner +=
                "      <failure type=\"\(reason.code)\" message=\"\(MarkupText.escaped("\(reason.code.words): \(reason.message)"))\">"
                + MarkupText.escaped(details, attribute: false) + "</failure>\n"
        case .cancelled:
            let message = MarkupText.escaped(result.message ?? "cancelled")
            inner +=
                Self.isError(result.outcome)
                ? "      <error type=\"cancelled\" message=\"\(message)\"/>\n" : "      <skipped message=\"\(message)\"/>\n"
        }
        if !result.warnings.isEmpty {
            let warnings = result.warnings.map { "warning: \($0)" }.joined(separator: "\n")
            inner += "      <system-out>\(MarkupText.escaped(warnings, attribute: false))</system-out>\n"
        }
        return inner.isEmpty ? open + "/>\n" : open + ">\n" + inner + "    </testcase>\n"
    }

    /// Whether a call counts as a JUnit error: cancelled by `--deadline`, which fails the run.
    static func isError(_ outcome: ProbeOutcome) -> Bool {
        if case .cancelled(.deadline) = outcome { return true }
        return false
    }

    /// Seconds with three decimals, e.g. `"0.012"`.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

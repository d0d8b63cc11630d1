/// A report written as the calls end: each result gives the text to write at once, and
/// ``finish(elapsed:)`` the rest (the summary). Text and JSON need only the counts to finish,
/// so a run's memory does not grow with its calls; JUnit puts the counts in its first lines,
/// so its test cases are held until the end. ``ReportFormat/render(_:colored:elapsed:)`` is
/// this over a whole array: both give the same bytes.
public struct ReportStream: Sendable {
    /// The format.
    public let format: ReportFormat
    /// Whether the text report may use ANSI colours.
    public let colored: Bool
    /// The outcomes counted so far.
    public private(set) var summary = ProbeSummary([])
    private var written = 0
    private var junitCases = ""
    private var junitErrors = 0
    private var longestCall = 0.0

    /// A stream.
    ///
    /// - Parameters:
    ///   - format: The report format.
    ///   - colored: Whether the text report may use ANSI colours (ignored by the others).
    public init(format: ReportFormat, colored: Bool = false) {
        self.format = format
        self.colored = colored
    }

    /// Takes one result, in request order, already redacted.
    ///
    /// - Parameter result: The call's result.
    /// - Returns: The text to write now (empty for JUnit, which writes at the end).
    public mutating func append(_ result: ProbeResult) -> String {
        summary.count(result)
        longestCall = max(longestCall, result.timings?.total ?? 0)
        defer { written += 1 }
        switch format {
        case .text:
            return TextReport(colored: colored).block(result) + "\n"
        case .json:
            let object = "    " + JSONReport.text(of: result)
            return (written == 0 ? "{\n  \"probes\": [\n" : ",\n") + object
        case .junit:
            if JUnitReport.isError(result.outcome) { junitErrors += 1 }
            junitCases += JUnitReport().testCase(result)
            return ""
        }
    }

    /// The end of the report.
    ///
    /// - Parameter elapsed: The run's wall-clock duration in seconds, for JUnit's suite `time`;
    ///   `nil` takes the longest call.
    /// - Returns: The text that ends the report, with a trailing newline.
    public func finish(elapsed: Double? = nil) -> String {
        switch format {
        case .text:
            return summary.description + "\n"
        case .json:
            let counts = JSONValue.object([
                ("succeeded", .integer(summary.succeeded)), ("failed", .integer(summary.failed)),
                ("cancelled", .integer(summary.cancelled)),
            ])
            let head = written == 0 ? "{\n  \"probes\": []" : "\n  ]"
            return head + ",\n  \"summary\": " + counts.text(indent: 1) + "\n}\n"
        case .junit:
            return JUnitReport.document(
                cases: junitCases, summary: summary, errors: junitErrors, seconds: elapsed ?? longestCall / 1000)
        }
    }
}

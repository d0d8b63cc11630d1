/// The report formats (`--format`).
public enum ReportFormat: String, Sendable, CaseIterable {
    /// One block per call and a summary line (``TextReport``).
    case text
    /// One object per call and a summary (``JSONReport``, documented in `docs/probe-json.md`).
    case json
    /// JUnit XML, one test case per call (``JUnitReport``).
    case junit

    /// The report of `results` in this format.
    ///
    /// - Parameters:
    ///   - results: a run's results, already redacted.
    ///   - colored: whether the text report may use ANSI colours (ignored by the others).
    ///   - elapsed: the run's wall-clock duration in seconds, for JUnit's suite `time`; `nil`
    ///     takes the longest call.
    /// - Returns: the whole report, ending with a newline.
    public func render(_ results: [ProbeResult], colored: Bool = false, elapsed: Double? = nil) -> String {
        var stream = ReportStream(format: self, colored: colored)
        var text = ""
        for result in results { text += stream.append(result) }
        return text + stream.finish(elapsed: elapsed)
    }
}

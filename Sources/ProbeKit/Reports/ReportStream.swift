import Dispatch
import Serialization
import Synchronization

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
        var bytes: [UInt8] = []
        append(result, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Takes one result, in request order, already redacted, and appends the text to write
    /// now to a byte buffer: one buffer for a whole run, which may have a million calls.
    ///
    /// - Parameters:
    ///   - result: The call's result.
    ///   - output: The UTF-8 waiting to be written.
    public mutating func append(_ result: ProbeResult, to output: inout [UInt8]) {
        summary.count(result)
        longestCall = max(longestCall, result.timings?.total ?? 0)
        defer { written += 1 }
        switch format {
        case .text:
            output += (TextReport(colored: colored).block(result) + "\n").utf8
        case .json:
            JSONValue.appendLiteral(written == 0 ? "{\n  \"probes\": [\n    " : ",\n    ", to: &output)
            JSONReport.write(result, to: &output)
        case .junit:
            if JUnitReport.isError(result.outcome) { junitErrors += 1 }
            junitCases += JUnitReport().testCase(result)
        }
    }

    /// Takes results that need no state of the run to render (a run's calls that never started,
    /// which may be a million), in request order after every result taken so far, and appends
    /// their text, rendered on all cores in one pass.
    ///
    /// - Parameters:
    ///   - count: How many results.
    ///   - result: The result at an offset from 0 to `count - 1`; called from several threads.
    ///   - output: The UTF-8 waiting to be written.
    public mutating func append(count: Int, result: @Sendable (Int) -> ProbeResult, to output: inout [UInt8]) {
        // JUnit collects its cases for the end; a short run is not worth the threads.
        guard format != .junit, count >= 4_096 else {
            for offset in 0..<count { append(result(offset), to: &output) }
            return
        }
        let chunks = 8
        let size = (count + chunks - 1) / chunks
        let rendered = Mutex<[Int: (bytes: [UInt8], summary: ProbeSummary, longest: Double)]>([:])
        let stream = self
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var part = stream
            part.written = stream.written + chunk * size
            part.summary = ProbeSummary([])
            part.longestCall = 0
            var bytes: [UInt8] = []
            // A compact record is about 200 bytes: one allocation for the chunk, not a doubling series.
            bytes.reserveCapacity(size * 256)
            for offset in chunk * size..<min(count, (chunk + 1) * size) { part.append(result(offset), to: &bytes) }
            rendered.withLock { $0[chunk] = (bytes, part.summary, part.longestCall) }
        }
        rendered.withLock { parts in
            for chunk in 0..<chunks {
                guard let part = parts[chunk] else { continue }
                output += part.bytes
                summary.add(part.summary)
                longestCall = max(longestCall, part.longest)
            }
        }
        written += count
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

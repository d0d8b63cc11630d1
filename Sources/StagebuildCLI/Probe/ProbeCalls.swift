import Foundation
import ProbeKit
import SanityServer

/// The calls of one `probe` run, in report order: every target as given, then all of them again
/// for each `--repeat`. With `--targets -` on a pipe, FIFO or terminal, standard input's lines
/// join the targets as they arrive, read by a thread of their own: the first call starts with
/// the first line, a `--deadline` or a signal ends the run while input is still open, and a
/// producer that never ends (`tail -f`) is probed line by line. The repetitions start once
/// input has ended, when the whole list is known.
final class ProbeCalls: ProbeRequestSource, @unchecked Sendable {
    /// Whether more targets can still arrive.
    private enum Input {
        /// Standard input is being read.
        case open
        /// Every target is known: the repetitions can be counted.
        case ended
        /// The run was cancelled while input was open: the targets read so far are all there is.
        case cut
    }

    /// The longest line of streamed input, in bytes: a target is a URL, and a line without end
    /// must not grow the process without bound.
    static let longestLine = 1 << 20

    private let plan: ProbePlan
    /// Guards everything below it; waited on by workers whose target has not arrived yet.
    private let condition = NSCondition()
    private var targets: TargetList
    private var input: Input
    /// Why reading stopped early (an overlong line, too much input), said after the run.
    private var inputFailure: String?
    private var watchesCancellation = false
    /// The lines of standard input added so far.
    private var linesRead = 0

    /// The calls of a plan. Those of a streaming plan are known only as ``start(reading:)``
    /// reads them.
    ///
    /// - Parameter plan: the checked command line.
    init(plan: ProbePlan) {
        self.plan = plan
        targets = plan.targets
        input = plan.streamsStandardInput ? .open : .ended
    }

    /// Starts the thread that reads standard input's lines into the targets, when the plan
    /// streams it; does nothing otherwise.
    ///
    /// - Parameter read: reads up to the given number of bytes of standard input, waiting for
    ///   some; empty at its end.
    func start(reading read: @escaping @Sendable (Int) -> [UInt8]) {
        guard plan.streamsStandardInput else { return }
        do {
            try DetachedThread.start { [self] in readLines(read) }
        } catch {
            end(failure: "cannot start a thread to read --targets -: \(error)")
        }
    }

    func request(at index: Int, cancellation: ProbeCancellation) -> Result<ProbeRequest, ProbeResultFailure>? {
        guard let (target, repetition) = target(at: index, cancellation: cancellation) else { return nil }
        return plan.request(for: target, repetition: repetition)
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return knownCount
    }

    var mayGrow: Bool {
        condition.lock()
        defer { condition.unlock() }
        return input == .open
    }

    /// Why standard input was not read to its end, once the run is over: an overlong line, or
    /// more than the targets list can hold. `nil` when it was read whole, or the run was cut.
    var failure: String? {
        condition.lock()
        defer { condition.unlock() }
        return inputFailure
    }

    /// The last line of standard input read, when the run was cancelled before its end: the
    /// lines after it were never read; `nil` when input was read to its end.
    var lastLineBeforeCut: Int? {
        condition.lock()
        defer { condition.unlock() }
        return input == .cut ? linesRead : nil
    }

    /// Whether the run had no target at all: a streamed input that ended without a URL.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return input == .ended && targets.isEmpty
    }

    /// The compact record of a call the run never started, once the run is over.
    ///
    /// - Parameters:
    ///   - index: 0-based, below ``count``.
    ///   - cause: why the run ended.
    ///   - engine: the engine's name.
    ///   - message: `not started: CAUSE`, made once for the run.
    func notStarted(at index: Int, cause: CancellationCause, engine: String, message: String) -> ProbeResult {
        let (target, repetition) = withTargets { targets in
            (targets[index % targets.count], index / targets.count + 1)
        }
        return plan.notStarted(for: target, repetition: repetition, cause: cause, engine: engine, message: message)
    }

    /// Every call below ``knownCount`` stays known; past it a call waits for input.
    private var knownCount: Int { input == .ended ? targets.count * plan.repeats : targets.count }

    private func withTargets<Result>(_ body: (TargetList) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(targets)
    }

    /// The target and repetition of the call at `index`, waiting while input is open and
    /// the call is not known yet; `nil` when there is none.
    private func target(at index: Int, cancellation: ProbeCancellation) -> (TargetList.Target, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while input == .open && index >= targets.count {
            if !watchesCancellation {
                watchesCancellation = true
                // Runs on the cancelling thread, or here at once when the run is already over.
                condition.unlock()
                cancellation.onCancel { [self] in cut() }
                condition.lock()
                continue
            }
            condition.wait()
        }
        guard index < knownCount else { return nil }
        return (targets[index % targets.count], index / targets.count + 1)
    }

    /// The run ended while input was open: what was read so far is every call.
    private func cut() {
        condition.lock()
        if input == .open { input = .cut }
        condition.broadcast()
        condition.unlock()
    }

    private func end(failure: String?) {
        condition.lock()
        if input == .open {
            input = .ended
            inputFailure = failure
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Reads standard input to its end, adding each whole line as it arrives (a last line
    /// without a newline at the end of input), until the run is cut.
    private func readLines(_ read: @Sendable (Int) -> [UInt8]) {
        var pending: [UInt8] = []
        var nextLine = 1
        while true {
            let chunk = read(65_536)
            if chunk.isEmpty {
                let failure = pending.isEmpty ? nil : add(pending[...], firstLine: nextLine, lastLine: nextLine)
                end(failure: failure)
                return
            }
            pending += chunk
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else {
                guard pending.count <= Self.longestLine else {
                    end(failure: "--targets <stdin>:\(nextLine) is longer than \(Self.longestLine) bytes; no URL is")
                    return
                }
                continue
            }
            let lines = pending[...lastNewline]
            let lastLine = nextLine + lines.count(where: { $0 == UInt8(ascii: "\n") }) - 1
            if let failure = add(lines, firstLine: nextLine, lastLine: lastLine) {
                end(failure: failure)
                return
            }
            nextLine = lastLine + 1
            pending.removeSubrange(...lastNewline)
            guard mayGrow else { return }
        }
    }

    /// Adds whole lines, waking the workers that wait for them.
    ///
    /// - Parameters:
    ///   - lines: the lines' bytes.
    ///   - firstLine: the 1-based number of the first of them.
    ///   - lastLine: the number of the last of them.
    /// - Returns: why they could not be added, or `nil`.
    private func add(_ lines: ArraySlice<UInt8>, firstLine: Int, lastLine: Int) -> String? {
        // A line that is not UTF-8 keeps its place: as a target it fails with the parser's
        // reason, where a file would be refused whole before the run.
        let text = String(decoding: lines, as: UTF8.self)
        condition.lock()
        defer { condition.unlock() }
        guard input == .open else { return nil }
        do {
            try targets.append(linesOf: text, file: "<stdin>", firstLine: firstLine)
        } catch {
            return "--targets - holds more than 4 GiB of URLs"
        }
        linesRead = lastLine
        condition.broadcast()
        return nil
    }
}

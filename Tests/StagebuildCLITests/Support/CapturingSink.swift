import Foundation
import StagebuildCLI

/// A sink that keeps what is written, for tests.
final class CapturingSink: TextSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = ""

    /// Creates an empty sink.
    init() {}

    /// Appends text.
    func write(_ text: String) {
        lock.withLock { buffer += text }
    }

    /// Everything written so far.
    var text: String { lock.withLock { buffer } }

    /// Never a terminal.
    var isTerminal: Bool { false }
}

import SanityServer
import Synchronization

/// Collects access-log entries from the server's threads.
final class LogRecorder: Sendable {
    private let storage = Mutex<[AccessLogEntry]>([])

    func record(_ entry: AccessLogEntry) { storage.withLock { $0.append(entry) } }

    var entries: [AccessLogEntry] { storage.withLock { $0 } }
}

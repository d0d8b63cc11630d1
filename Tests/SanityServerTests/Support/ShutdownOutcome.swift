import Dispatch
import SanityServer
import Synchronization

/// The result of a shutdown running on another thread.
final class ShutdownOutcome: Sendable {
    private let result = Mutex<ShutdownResult?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: ShutdownResult) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait(seconds: Double) -> ShutdownResult? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }
}

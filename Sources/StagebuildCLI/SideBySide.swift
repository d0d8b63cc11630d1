import Dispatch
import Synchronization

/// Does two pieces of work at once, on two of Dispatch's threads, and returns both results:
/// for work that reads the same input and writes nothing shared (two listings parsed).
///
/// - Parameters:
///   - first: One piece of work.
///   - second: The other.
/// - Returns: Their results, in the order given.
func sideBySide<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    let results = Mutex<(First?, Second?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
            let result = first()
            results.withLock { $0.0 = result }
        } else {
            let result = second()
            results.withLock { $0.1 = result }
        }
    }
    return results.withLock { ($0.0!, $0.1!) }
}

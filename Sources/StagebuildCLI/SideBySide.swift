import Dispatch
import Synchronization

/// Does `count` pieces of work at once, on Dispatch's threads, and returns their results in
/// order: for work that reads the same input and writes nothing shared (listings run and parsed).
///
/// - Parameters:
///   - count: How many pieces.
///   - work: The piece at an index.
/// - Returns: Each piece's result, by index.
func concurrently<Value: Sendable>(_ count: Int, _ work: @Sendable (Int) -> Value) -> [Value] {
    let results = Mutex([Value?](repeating: nil, count: count))
    DispatchQueue.concurrentPerform(iterations: count) { index in
        let result = work(index)
        results.withLock { $0[index] = result }
    }
    return results.withLock { $0.map { $0! } }
}

/// Does two pieces of work of different kinds at once (``concurrently(_:_:)``) and returns both
/// results.
///
/// - Parameters:
///   - first: One piece of work.
///   - second: The other.
/// - Returns: Their results, in the order given.
func sideBySide<First: Sendable, Second: Sendable>(
    _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    let results = concurrently(2) { index -> (First?, Second?) in index == 0 ? (first(), nil) : (nil, second()) }
    return (results[0].0!, results[1].1!)
}

/// The deadlines of one event loop's connections, soonest first: a binary min-heap.
///
/// An entry names its connection by descriptor and identifier, so an entry left behind by a
/// connection whose descriptor was closed and reused is recognised and skipped when it comes due.
struct TimerHeap {
    /// One deadline.
    struct Entry {
        /// Monotonic nanoseconds.
        var deadline: UInt64
        var descriptor: Int32
        var connectionID: UInt64
    }

    private var entries: [Entry] = []

    /// How many entries are waiting, stale ones included.
    var count: Int { entries.count }

    /// The soonest deadline, or `nil` when there is none.
    var soonest: UInt64? { entries.first?.deadline }

    /// Adds a deadline.
    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the soonest entry if it is due.
    ///
    /// - Parameter now: Monotonic nanoseconds.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count && entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count && entries[right].deadline < entries[smallest].deadline { smallest = right }
            if smallest == parent { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}

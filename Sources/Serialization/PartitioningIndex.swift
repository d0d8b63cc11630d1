extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` holds, in a
    /// collection already partitioned by it (every element for which it fails comes first):
    /// binary search, O(log n) calls. `endIndex` when it holds for none. The name and meaning of
    /// swift-algorithms' `partitioningIndex(where:)`, which this package cannot fetch.
    ///
    /// - Parameter belongsInSecondPartition: e.g. `{ $0.line > target }` over elements in line order.
    /// - Returns: The partition's boundary.
    @inlinable
    public func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}

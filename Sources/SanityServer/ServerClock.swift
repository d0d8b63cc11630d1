import Glibc

/// The two clocks the server reads: wall time for `Date` and log lines, monotonic time for
/// deadlines and durations. Tests can pass their own.
public struct ServerClock: Sendable {
    /// Seconds since 1970-01-01T00:00:00Z, for the `Date` field (RFC 9110 section 6.6.1) and
    /// ``AccessLogEntry/time``.
    public var wallSeconds: @Sendable () -> Double
    /// Nanoseconds since an arbitrary fixed point that never goes backwards, for deadlines and
    /// ``AccessLogEntry/durationMilliseconds``.
    public var monotonicNanoseconds: @Sendable () -> UInt64

    /// Creates a clock from two readings.
    ///
    /// - Parameters:
    ///   - wallSeconds: Seconds since the Unix epoch.
    ///   - monotonicNanoseconds: Nanoseconds from a fixed point, never decreasing.
    public init(wallSeconds: @escaping @Sendable () -> Double, monotonicNanoseconds: @escaping @Sendable () -> UInt64) {
        self.wallSeconds = wallSeconds
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    /// The machine's clocks: `CLOCK_REALTIME` and `CLOCK_MONOTONIC`.
    public static let system = ServerClock(
        wallSeconds: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        },
        monotonicNanoseconds: {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        }
    )
}

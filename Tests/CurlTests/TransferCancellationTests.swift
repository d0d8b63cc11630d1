import Curl
import Foundation
import TestSupport
import Testing

/// Cancelling from another thread ends a transfer promptly with `abortedByCallback`.
@Suite struct TransferCancellationTests {
    /// Cancels `cancellation` on another thread after `milliseconds`; the returned value tells
    /// when `cancel()` was called.
    @discardableResult
    private func cancel(_ cancellation: TransferCancellation, afterMilliseconds milliseconds: Int) -> CancelTime {
        let time = CancelTime()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1_000)
            time.mark()
            cancellation.cancel()
        }
        return time
    }

    @Test func cancelEndsTransferWaitingForSilentServer() throws {
        let listener = try SilentListener()
        let cancellation = TransferCancellation()
        let cancelled = cancel(cancellation, afterMilliseconds: 100)
        let (result, _) = try transfer(
            [.url("http://127.0.0.1:\(listener.port)/"), .timeout(milliseconds: 10_000)], cancellation: cancellation)
        let returned = ContinuousClock.now

        let error = try #require(result.failure)
        #expect(error.code == .abortedByCallback)
        #expect(error.message == "Operation cancelled by the caller")
        let latency = try #require(cancelled.latency(until: returned))
        #expect(latency < .milliseconds(200), "perform returned \(latency) after cancel()")
    }

    @Test func cancelEndsTransferInTheMiddleOfTheBody() throws {
        let server = try LoopbackServer.plain.get()
        let cancellation = TransferCancellation()
        let cancelled = cancel(cancellation, afterMilliseconds: 350)
        let (result, _) = try transfer(
            [.url(server.url("/drip")), .timeout(milliseconds: 20_000)], cancellation: cancellation)
        let returned = ContinuousClock.now

        let error = try #require(result.failure)
        #expect(error.code == .abortedByCallback)
        let latency = try #require(cancelled.latency(until: returned))
        #expect(latency < .milliseconds(200), "perform returned \(latency) after cancel()")
        let partial = try #require(error.partialResponse)
        #expect(partial.statusCode == 200)
        #expect(partial.bodyByteCount > 0 && partial.bodyByteCount < 100)
    }

    @Test func oneSwitchCancelsSeveralTransfersOnSeveralThreads() throws {
        let listener = try SilentListener()
        let cancellation = TransferCancellation()
        let url = "http://127.0.0.1:\(listener.port)/"
        let codes = Codes()
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread.detachNewThread {
                let code = try? transfer([.url(url), .timeout(milliseconds: 10_000)], cancellation: cancellation)
                    .result.failure?.code
                codes.append(code)
                group.leave()
            }
        }
        cancel(cancellation, afterMilliseconds: 100)
        #expect(group.wait(timeout: .now() + 2) == .success)
        #expect(codes.all == [.abortedByCallback, .abortedByCallback, .abortedByCallback])
    }

    @Test func transferStartedAfterCancelEndsBeforeConnecting() throws {
        let server = try LoopbackServer.plain.get()
        let cancellation = TransferCancellation()
        cancellation.cancel()
        let (result, elapsed) = try transfer([.url(server.url("/hello"))], cancellation: cancellation)

        let error = try #require(result.failure)
        #expect(error.code == .abortedByCallback)
        #expect(error.partialResponse?.statusCode == 0)
        #expect(error.partialResponse?.timings.connect == 0, "never connected")
        #expect(elapsed < .milliseconds(200))
        #expect(cancellation.isCancelled)
    }
}

/// Codes collected from several threads.
private final class Codes: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [CurlCode?] = []
    func append(_ code: CurlCode?) { lock.withLock { codes.append(code) } }
    var all: [CurlCode?] { lock.withLock { codes } }
}

/// When a helper thread called `cancel()`.
private final class CancelTime: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: ContinuousClock.Instant?
    func mark() { lock.withLock { instant = .now } }
    func latency(until end: ContinuousClock.Instant) -> Duration? { lock.withLock { instant.map { end - $0 } } }
}

import Glibc

/// One client connection on an ``EventLoop``: its bytes in and out and where it is in the
/// HTTP/1.1 exchange. Only its loop's thread touches it.
///
/// A connection reads requests, answers them in order (pipelining, RFC 9112 section 9.3.2),
/// and stays open while they are persistent (section 9.3). Its answers wait in ``output`` until
/// the socket takes them; while they wait, no more requests are read (backpressure). A
/// connection the server ends lingers: half-closed, it reads and discards what the client still
/// sends, so the kernel does not answer unread input with a reset that would destroy the
/// response in flight (section 9.6, nginx's `lingering_close`).
final class EventConnection {
    /// Where the connection is.
    enum Phase {
        /// Reading requests and sending answers.
        case reading
        /// Holding a `/delay/MS` answer until its time.
        case delaying(Delayed)
        /// Waiting for the handler's later answer (``Responder``).
        case awaiting(Awaiting)
        /// Half-closed, discarding input until the client closes or the linger time ends.
        case lingering
    }

    /// A `/delay/MS` answer waiting for its time.
    struct Delayed {
        /// Monotonic nanoseconds when it is sent.
        var due: UInt64
        var request: HTTPRequest
        var response: HTTPResponse
        /// When the request's first byte arrived.
        var start: UInt64
    }

    /// A request whose answer the handler delivers later.
    struct Awaiting {
        var request: HTTPRequest
        /// When the request's first byte arrived.
        var start: UInt64
    }

    /// Answers waiting beyond this many bytes stop the reading of further pipelined requests.
    static let outputHighWater = 256 * 1024
    /// Bytes read and discarded while lingering before the socket is closed anyway.
    static let maxDiscardedBytes = 1 << 20

    let descriptor: Int32
    /// Unique within the process, so a timer of a closed connection never fires for a new one
    /// that got the same descriptor.
    let id: UInt64
    let peer: SocketAddress
    let local: SocketAddress
    var phase = Phase.reading
    /// Whether the connection counts against `--max-connections` (not once it lingers).
    var isServed: Bool
    private var parser: HTTPRequestParser
    /// Unconsumed input, from the first byte of the request being read.
    private(set) var input: [UInt8] = []
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// When the first byte of the request being read arrived; `nil` between requests.
    private(set) var requestStart: UInt64?
    /// When the connection was accepted or last sent a whole answer.
    private(set) var idleSince: UInt64
    /// Requests answered, so an idle connection that has served one is a keep-alive one.
    private(set) var answeredCount = 0
    private var sentContinue = false
    /// The answers end the connection: linger once they are sent.
    private(set) var closesAfterOutput = false
    /// The client closed its side and nothing is left to answer: close once the output is sent.
    private var closesNow = false
    private var peerClosed = false
    /// When the send buffer last filled up with answers still waiting.
    private var writeStalledSince: UInt64?
    var lingerDeadline: UInt64 = 0
    /// Whether it lingers right after sending an answer (not an idle connection the server ended).
    var lingersAfterAnswer = false
    private var discardedBytes = 0
    /// The soonest deadline the loop's timer heap holds for this connection, if any.
    var scheduledDeadline: UInt64?
    /// The `EPOLL*` events the loop watches for now.
    var watchedEvents: UInt32

    init(
        descriptor: Int32, id: UInt64, peer: SocketAddress, local: SocketAddress, now: UInt64,
        configuration: ServerConfiguration, isServed: Bool
    ) {
        self.descriptor = descriptor
        self.id = id
        self.peer = peer
        self.local = local
        self.isServed = isServed
        idleSince = now
        watchedEvents = Epoll.readable
        parser = HTTPRequestParser(maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
    }

    /// Whether answers are waiting for the socket.
    var hasOutput: Bool { outputOffset < output.count }

    /// Whether it waits for a next request with nothing read or owed: a keep-alive connection
    /// between requests once ``answeredCount`` is above zero.
    var isIdle: Bool {
        guard case .reading = phase else { return false }
        return requestStart == nil && input.isEmpty && !hasOutput && !closesAfterOutput
    }

    /// The events to watch: input while reading with nothing owed, room to send while answers wait.
    var wantedEvents: UInt32 {
        if hasOutput { return Epoll.writable }
        switch phase {
        case .reading, .lingering: return Epoll.readable
        case .delaying, .awaiting: return 0
        }
    }

    /// What reading found.
    enum ReadResult {
        case open
        case failed
    }

    /// Reads what has arrived, at most a few buffers' worth per turn.
    ///
    /// - Parameters:
    ///   - scratch: The loop's read buffer.
    ///   - now: Monotonic nanoseconds, for the start of a request.
    /// - Returns: ``ReadResult/failed`` when the socket failed (a reset): close it at once.
    func read(into scratch: inout [UInt8], now: UInt64) -> ReadResult {
        for _ in 0..<4 {
            let count: Int
            do throws(ServerError) {
                count = try SystemCall.receive(descriptor, into: &scratch)
            } catch {
                if case .systemCall(_, let code) = error, code == EAGAIN || code == EWOULDBLOCK { return .open }
                return .failed
            }
            if count == 0 {
                peerClosed = true
                return .open
            }
            if input.isEmpty { requestStart = requestStart ?? now }
            input.append(contentsOf: scratch[0..<count])
            if count < scratch.count { return .open }
        }
        return .open
    }

    /// Reads and discards while lingering.
    ///
    /// - Returns: `true` when the socket is done: closed by the peer, failed, or too chatty.
    func discard(into scratch: inout [UInt8]) -> Bool {
        while true {
            let count: Int
            do throws(ServerError) {
                count = try SystemCall.receive(descriptor, into: &scratch)
            } catch {
                if case .systemCall(_, let code) = error, code == EAGAIN || code == EWOULDBLOCK { return false }
                return true
            }
            if count == 0 { return true }
            discardedBytes += count
            if discardedBytes > Self.maxDiscardedBytes { return true }
        }
    }

    /// Answers every complete request in the input, in order, until an answer must wait
    /// (`/delay`), ends the connection, or too much output waits.
    ///
    /// - Parameter loop: Routes, clock, configuration and log.
    /// - Returns: `true` when it stopped only because of waiting output, with input left to answer.
    func process(_ loop: EventLoop) -> Bool {
        while case .reading = phase, !closesAfterOutput, !closesNow {
            if output.count - outputOffset >= Self.outputHighWater { return !input.isEmpty }
            if input.isEmpty {
                if peerClosed { closesNow = true }
                return false
            }
            let now = loop.clock.monotonicNanoseconds()
            let parsed: (request: HTTPRequest, consumedByteCount: Int)?
            do throws(HTTPRequestError) {
                parsed = try parser.parse(input)
            } catch {
                reject(.rejection(error), start: requestStart ?? now, loop)
                return false
            }
            guard let (request, consumed) = parsed else {
                if parser.expectsContinue && !sentContinue {
                    sentContinue = true
                    output.append(contentsOf: Self.continueResponse)
                }
                if peerClosed { reject(.rejection(.incompleteRequest), start: requestStart ?? now, loop) }
                return false
            }
            if consumed == input.count { input.removeAll(keepingCapacity: true) } else { input.removeFirst(consumed) }
            let start = requestStart ?? now
            requestStart = input.isEmpty ? nil : now
            sentContinue = false
            let response: HTTPResponse
            switch loop.handler.answer(request, peer: peer, local: local, responder: loop.responder(for: self)) {
            case .now(let now): response = now
            case .later:
                phase = .awaiting(Awaiting(request: request, start: start))
                return false
            }
            if response.delayMilliseconds > 0 {
                let due = now + UInt64(response.delayMilliseconds) * 1_000_000
                phase = .delaying(Delayed(due: due, request: request, response: response, start: start))
                return false
            }
            answer(request, with: response, start: start, loop)
        }
        return false
    }

    /// Sends a delayed answer whose time has come; reading resumes after it.
    func finishDelay(_ loop: EventLoop) {
        guard case .delaying(let delayed) = phase else { return }
        phase = .reading
        answer(delayed.request, with: delayed.response, start: delayed.start, loop)
    }

    /// Sends the handler's later answer, if the connection still waits for one; reading
    /// resumes after it.
    ///
    /// - Returns: Whether it was waiting.
    func finishAwaiting(with response: HTTPResponse, _ loop: EventLoop) -> Bool {
        guard case .awaiting(let awaiting) = phase else { return false }
        phase = .reading
        answer(awaiting.request, with: response, start: awaiting.start, loop)
        return true
    }

    /// Answers an unreadable or late request; the connection ends after it.
    ///
    /// - Parameters:
    ///   - response: The error answer, e.g. ``HTTPResponse/requestTimeout(seconds:)``.
    ///   - start: When the request's first byte arrived.
    func reject(_ response: HTTPResponse, start: UInt64, _ loop: EventLoop) {
        let (bytes, contentBytes) = response.serialized(
            date: loop.date(), server: loop.configuration.name, connection: "close", omitsContent: false)
        output.append(contentsOf: bytes)
        loop.log(
            method: nil, target: nil, version: nil, status: response.status, bytes: contentBytes, start: start, peer: peer)
        closesAfterOutput = true
    }

    private func answer(_ request: HTTPRequest, with response: HTTPResponse, start: UInt64, _ loop: EventLoop) {
        let keepsOpen = request.keepsConnectionOpen && !loop.isStopping
        let connection: String? = keepsOpen ? (request.version.minor == 0 ? "keep-alive" : nil) : "close"
        let (bytes, contentBytes) = response.serialized(
            date: loop.date(), server: loop.configuration.name, connection: connection,
            omitsContent: request.method == "HEAD")
        output.append(contentsOf: bytes)
        loop.log(
            method: request.method, target: request.target, version: request.version.description, status: response.status,
            bytes: contentBytes, start: start, peer: peer)
        answeredCount += 1
        if !keepsOpen { closesAfterOutput = true }
    }

    /// What sending found.
    enum FlushResult {
        /// Everything is sent, or the rest waits for room.
        case open
        /// Everything is sent and the connection ends: linger.
        case linger
        /// Everything is sent and the client is gone: close.
        case close
        /// The socket failed: close at once.
        case failed
    }

    /// Sends what the socket takes now.
    ///
    /// - Parameter now: Monotonic nanoseconds, for the stall deadline.
    func flush(now: UInt64) -> FlushResult {
        while outputOffset < output.count {
            let sent: Int
            do throws(ServerError) {
                sent = try SystemCall.send(descriptor, output, from: outputOffset)
            } catch {
                if case .systemCall(_, let code) = error, code == EAGAIN || code == EWOULDBLOCK {
                    writeStalledSince = writeStalledSince ?? now
                    return .open
                }
                return .failed
            }
            outputOffset += sent
            writeStalledSince = nil
        }
        if !output.isEmpty {
            output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
            outputOffset = 0
            idleSince = now
        }
        writeStalledSince = nil
        if closesAfterOutput { return .linger }
        if closesNow { return .close }
        return .open
    }

    /// The next moment something must happen without input: a delayed answer is due, the
    /// linger time ends, a stalled send gives up, or the read deadline passes; `nil` while the
    /// handler's later answer is awaited (the handler bounds its own work).
    ///
    /// - Parameter readDeadline: ``ServerConfiguration/readDeadline`` in nanoseconds.
    func nextDeadline(readDeadline: UInt64) -> UInt64? {
        switch phase {
        case .lingering: return lingerDeadline
        case .delaying(let delayed): return delayed.due
        case .awaiting: return nil
        case .reading:
            if let stalled = writeStalledSince { return stalled + readDeadline }
            return (requestStart ?? idleSince) + readDeadline
        }
    }

    /// What a passed read deadline means.
    enum Expiry {
        /// Nothing: the deadline has moved on.
        case none
        /// A request was being read: answer 408.
        case requestTimedOut(start: UInt64)
        /// Idle: end it silently.
        case idleTimedOut
        /// A send stalled: close at once.
        case sendStalled
    }

    /// Whether the read or send deadline has passed while reading.
    func expiry(now: UInt64, readDeadline: UInt64) -> Expiry {
        guard case .reading = phase else { return .none }
        if let stalled = writeStalledSince { return now >= stalled + readDeadline ? .sendStalled : .none }
        if hasOutput || closesAfterOutput { return .none }
        if let start = requestStart { return now >= start + readDeadline ? .requestTimedOut(start: start) : .none }
        return now >= idleSince + readDeadline ? .idleTimedOut : .none
    }

    private static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

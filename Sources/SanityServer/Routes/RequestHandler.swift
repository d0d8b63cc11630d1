import Synchronization

/// Answers complete requests on the server's event loops: the sanity routes (``Router``) are
/// one handler, the exporter's `/probe` another.
///
/// ``answer(_:peer:local:responder:)`` runs on an event loop thread and must not block: work
/// that takes time runs elsewhere and ends with ``Responder/respond(_:)``, so no thread waits
/// per request.
public protocol RequestHandler: Sendable {
    /// The answer to a request.
    ///
    /// - Parameters:
    ///   - request: The complete request, body included.
    ///   - peer: The TCP peer.
    ///   - local: The local end of the connection.
    ///   - responder: Delivers a later answer; use it exactly once when the result is ``HandlerAnswer/later``.
    /// - Returns: The answer now, or ``HandlerAnswer/later``.
    func answer(_ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder) -> HandlerAnswer
}

/// What a ``RequestHandler`` answers at once.
public enum HandlerAnswer: Sendable {
    /// This response (`delayMilliseconds` holds it on a timer first).
    case now(HTTPResponse)
    /// A response that ``Responder/respond(_:)`` delivers later.
    case later
}

/// Delivers one later answer to the connection that asked, from any thread. A response for a
/// connection that has gone (closed by its client, or by shutdown) is dropped.
public struct Responder: Sendable {
    let mailbox: EventLoop.Mailbox
    let descriptor: Int32
    let connectionID: UInt64

    /// Sends the response on the connection's event loop.
    ///
    /// - Parameter response: The answer.
    public func respond(_ response: HTTPResponse) {
        mailbox.post(.init(descriptor: descriptor, connectionID: connectionID, response: response))
    }
}

/// What a running server's threads share: the listener and the signals that stop them.
final class ServerRuntime: Sendable {
    /// The listening socket.
    let listener: ListeningSocket
    /// Signalled once at shutdown: stop accepting, close idle connections.
    let stopSignal: EventSignal
    /// Signalled when the grace period is over: abandon `/delay` waits.
    let forceSignal: EventSignal
    /// Closes connections the server ends, without losing their last response.
    let lingerer: LingeringCloser

    init(listener: ListeningSocket, stopSignal: EventSignal, forceSignal: EventSignal, lingerer: LingeringCloser) {
        self.listener = listener
        self.stopSignal = stopSignal
        self.forceSignal = forceSignal
        self.lingerer = lingerer
    }

    /// Releases everything when ``SanityServer/start()`` fails half way, before any connection.
    ///
    /// - Parameters:
    ///   - lingererRunning: Whether the lingering closer's thread was started and must be stopped.
    func release(lingererRunning: Bool) {
        listener.close()
        if !lingererRunning || lingerer.stop(timeoutMilliseconds: 2000) {
            stopSignal.close()
            forceSignal.close()
        }
    }
}

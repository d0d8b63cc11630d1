import Glibc

extension SanityServer {
    /// Accepts connections until the stop signal; then closes the listener.
    func acceptLoop(_ runtime: ServerRuntime) {
        defer {
            runtime.listener.close()
            state.withLock { $0.acceptLoopRunning = false }
        }
        var entries = [
            pollfd(fd: runtime.listener.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: runtime.stopSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            entries[0].revents = 0
            entries[1].revents = 0
            do throws(ServerError) {
                _ = try SystemCall.poll(&entries) { -1 }
            } catch {
                Self.pause(milliseconds: 20)
                continue
            }
            if entries[1].revents != 0 { return }
            do throws(ServerError) {
                while let (descriptor, peer) = try runtime.listener.accept() {
                    admit(descriptor, peer: peer, runtime)
                    if isStopping { return }
                }
            } catch {
                // EMFILE, ENFILE, ENOBUFS: the queued connection waits until descriptors free up.
                Self.pause(milliseconds: 20)
            }
        }
    }

    /// Serves a new connection on its own thread, or answers 503 when the limit is reached.
    private func admit(_ descriptor: Int32, peer: SocketAddress, _ runtime: ServerRuntime) {
        let limit = configuration.maxConnections
        let identifier = state.withLock { state -> Int? in
            guard state.connections.count < limit else { return nil }
            state.nextConnectionID += 1
            state.connections[state.nextConnectionID] = descriptor
            return state.nextConnectionID
        }
        guard let identifier else {
            refuse(descriptor, peer: peer, runtime)
            return
        }
        do throws(ServerError) {
            try DetachedThread.start { [self] in
                var connection = Connection(descriptor: descriptor, peer: peer, server: self, runtime: runtime)
                let ending = connection.run()
                state.withLock { _ = $0.connections.removeValue(forKey: identifier) }
                switch ending {
                case .closeNow: SystemCall.close(descriptor)
                case .linger: runtime.lingerer.close(descriptor)
                }
            }
        } catch {
            state.withLock { _ = $0.connections.removeValue(forKey: identifier) }
            refuse(descriptor, peer: peer, runtime)
        }
    }

    /// Answers `503 Service Unavailable` with `Retry-After` without reading the request, then
    /// closes (RFC 9110 section 15.6.4).
    private func refuse(_ descriptor: Int32, peer: SocketAddress, _ runtime: ServerRuntime) {
        let now = clock.wallSeconds()
        let response = HTTPResponse.overloaded()
        let (bytes, contentBytes) = response.serialized(
            date: HTTPDate.string(secondsSince1970: Int(now)), server: configuration.name, connection: "close",
            omitsContent: false)
        _ = try? SystemCall.send(descriptor, bytes, flags: Int32(MSG_DONTWAIT))
        runtime.lingerer.close(descriptor)
        accessLog(
            AccessLogEntry(
                time: now, method: nil, target: nil, version: nil, status: response.status, bytes: contentBytes,
                durationMilliseconds: 0, peer: peer))
    }
}

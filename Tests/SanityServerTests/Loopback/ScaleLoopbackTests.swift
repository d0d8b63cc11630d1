import Dispatch
import Foundation
import SanityServer
import Synchronization
import Testing

extension LoopbackTests {
    /// Many connections at once on the event loops: all served, none starved by the slow ones,
    /// and not one descriptor left behind.
    @Suite struct ScaleLoopbackTests {
        /// Every hostile and valid input of the robustness suite, sent one byte per `send` over
        /// as many connections at once: a request that arrives in pieces is read as one, and a
        /// bad one gets its 4xx, whatever the piece boundaries.
        @Test(.timeLimit(.minutes(1)))
        func readsRequestsThatArriveOneByteAtATimeOnManyConnections() throws {
            let server = try TestServer(ServerConfiguration(readDeadline: 10))
            let port = server.address.port
            let inputs = (RobustnessLoopbackTests.hostileRequests + RobustnessLoopbackTests.validRequests).map {
                Array($0.utf8)
            }
            let copies = 25
            var clients: [(client: TestClient, input: [UInt8])] = []
            for _ in 0..<copies {
                for input in inputs { clients.append((try server.client(timeout: 10), input)) }
            }
            // Round-robin: byte N of every input goes out before byte N + 1 of any.
            let longest = inputs.map(\.count).max() ?? 0
            for position in 0..<longest {
                for (client, input) in clients where position < input.count {
                    try? client.send([input[position]])
                }
            }
            var statuses: [String: Int] = [:]
            for (client, input) in clients {
                client.finishSending()
                let reply = try client.readToEnd()
                let line = String(decoding: reply.prefix(12), as: UTF8.self)
                #expect(reply.isEmpty || line.hasPrefix("HTTP/1.1 "), "\(String(decoding: input, as: UTF8.self)): \(line)")
                statuses[line, default: 0] += 1
            }
            // The valid inputs are answered 200 in every copy.
            #expect(statuses["HTTP/1.1 200", default: 0] >= RobustnessLoopbackTests.validRequests.count * copies)
            #expect(statuses["HTTP/1.1 400", default: 0] >= copies, "\(statuses)")
            clients.removeAll()
            #expect(server.eventually(within: 5) { openDescriptorCount(localPort: port) == 1 })
        }

        /// 2,000 connections open at once, each with a request in flight, are all answered.
        @Test(.timeLimit(.minutes(1)))
        func servesTwoThousandConcurrentConnections() throws {
            let server = try TestServer(ServerConfiguration(maxConnections: 4000))
            let port = server.address.port
            var clients: [TestClient] = []
            for _ in 0..<2000 { clients.append(try server.client(timeout: 10)) }
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == 2000 })
            for client in clients { try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n") }
            var answered = 0
            for client in clients where try client.readResponse().status == 200 { answered += 1 }
            #expect(answered == 2000)
            clients.removeAll()
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == 0 })
            #expect(server.eventually(within: 5) { openDescriptorCount(localPort: port) == 1 })
        }

        /// Shutdown with 500 requests in flight: each is answered within the grace period with
        /// `Connection: close`, none is forced, and every socket is closed.
        @Test(.timeLimit(.minutes(1)))
        func shutdownFinishesFiveHundredRequestsInFlight() throws {
            let server = try TestServer(ServerConfiguration(maxConnections: 1000, maxDelay: 5, grace: 5))
            let port = server.address.port
            var clients: [TestClient] = []
            for _ in 0..<500 {
                let client = try server.client(timeout: 10)
                try client.send("GET /delay/500 HTTP/1.1\r\nHost: t\r\n\r\n")
                clients.append(client)
            }
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == 500 })
            let outcome = ShutdownOutcome()
            let started = Date()
            DispatchQueue.global().async { outcome.finish(server.server.shutdown()) }
            var closed = 0
            for client in clients {
                let response = try client.readResponse()
                let ended = try client.serverClosed()
                if response.status == 200 && response.field("Connection") == "close" && ended { closed += 1 }
            }
            #expect(closed == 500)
            let result = try #require(outcome.wait(seconds: 10))
            #expect(result.forcedConnectionCount == 0)
            #expect(Date().timeIntervalSince(started) < 4)
            clients.removeAll()
            #expect(server.eventually(within: 5) { openDescriptorCount(localPort: port) == 0 })
        }

        /// At 90% of `--max-connections` (9 of 10 here), a new client closes an idle keep-alive
        /// connection (the oldest of the event loop that accepts it) instead of letting it hold
        /// its slot until the read deadline; the others stay open and serve.
        @Test(.timeLimit(.minutes(1)))
        func idleKeepAliveConnectionsMakeRoomOldestFirst() throws {
            let limit = 10
            let server = try TestServer(ServerConfiguration(maxConnections: limit, readDeadline: 30))
            var idle: [TestClient] = []
            for _ in 0..<(limit - 1) {
                let client = try server.client()
                try client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(try client.readResponse().status == 200)
                idle.append(client)
            }
            #expect(server.server.openConnectionCount == limit - 1)
            let started = Date()
            let fresh = try server.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(fresh.status == 200)
            #expect(Date().timeIntervalSince(started) < 2)
            let closed = idle.indices.filter { idle[$0].isClosedByServer(within: 1) }
            #expect(closed.count == 1, "one idle connection made room: \(closed)")
            for index in idle.indices where !closed.contains(index) {
                try idle[index].send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(try idle[index].readResponse().status == 200, "idle connection \(index) still serves")
            }
        }
    }
}

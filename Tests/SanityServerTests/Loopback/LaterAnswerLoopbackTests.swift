import Dispatch
import Foundation
import SanityServer
import Testing

extension LoopbackTests {
    /// A handler that answers later, from another thread, as the exporter's probes do: no loop
    /// thread waits, so other requests go on meanwhile.
    @Suite struct LaterAnswerLoopbackTests {
        /// Answers `/later` after 300 ms from a queue of its own, anything else at once.
        struct SlowHandler: RequestHandler {
            func answer(
                _ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder
            ) -> HandlerAnswer {
                let ok = HTTPResponse(status: 200, fields: [], body: Array("\(request.target)\n".utf8))
                guard request.target == "/later" else { return .now(ok) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { responder.respond(ok) }
                return .later
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func laterAnswersHoldNoThreadAndArriveInOrder() throws {
            let server = try TestServer(ServerConfiguration(eventLoops: 1), handler: SlowHandler())
            var waiting: [TestClient] = []
            for _ in 0..<200 {
                let client = try server.client()
                // Two pipelined requests: the second waits for the first's later answer.
                try client.send("GET /later HTTP/1.1\r\nHost: t\r\n\r\nGET /now HTTP/1.1\r\nHost: t\r\n\r\n")
                waiting.append(client)
            }
            let started = Date()
            let quick = try server.request("GET /quick HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(quick.status == 200)
            #expect(Date().timeIntervalSince(started) < 0.25, "one loop thread, not held by 200 later answers")
            for client in waiting {
                #expect(try client.readResponse().body == Array("/later\n".utf8))
                #expect(try client.readResponse().body == Array("/now\n".utf8))
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func aLaterAnswerForAClosedConnectionIsDropped() throws {
            let server = try TestServer(ServerConfiguration(eventLoops: 1), handler: SlowHandler())
            let port = server.address.port
            do {
                let client = try server.client()
                try client.send("GET /later HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(server.eventually { server.server.openConnectionCount == 1 })
            }
            #expect(server.eventually { server.server.openConnectionCount == 0 })
            usleep(400_000)
            #expect(try server.request("GET /after HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
            #expect(server.eventually { openDescriptorCount(localPort: port) == 1 })
        }
    }
}

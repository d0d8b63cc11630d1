import Dispatch
import Foundation
import SanityServer
import Synchronization
import Testing

extension LoopbackTests {
    /// Graceful shutdown: stop accepting, finish what is in flight, close the rest.
    @Suite struct ShutdownLoopbackTests {
        @Test func finishesRequestInFlightDuringGracefulShutdown() throws {
            let server = try TestServer(ServerConfiguration(maxDelay: 5, grace: 5))
            let client = try server.client()
            try client.send("GET /delay/400 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(server.eventually { server.server.openConnectionCount == 1 })
            usleep(50_000)
            let outcome = ShutdownOutcome()
            let started = Date()
            DispatchQueue.global().async { outcome.finish(server.server.shutdown()) }
            // During the grace period the port refuses new clients at once.
            #expect(server.eventually(within: 1) { (try? server.client(timeout: 1)) == nil }, "new clients are refused")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.field("Connection") == "close")
            #expect(try client.serverClosed())
            let result = try #require(outcome.wait(seconds: 5))
            #expect(result.forcedConnectionCount == 0)
            #expect(Date().timeIntervalSince(started) < 3)
            #expect(throws: TestClient.Failure.self) { try server.client() }
        }

        @Test func closesIdleConnectionsWithoutWaitingForGrace() throws {
            let server = try TestServer(ServerConfiguration(grace: 10))
            let idle = try server.client()
            try idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try idle.readResponse().status == 200)
            let started = Date()
            #expect(server.server.shutdown().forcedConnectionCount == 0)
            #expect(Date().timeIntervalSince(started) < 2)
            #expect(try idle.serverClosed())
        }

        @Test func closesConnectionsThatOutliveTheGracePeriod() throws {
            let server = try TestServer(ServerConfiguration(maxDelay: 10))
            let client = try server.client()
            try client.send("GET /delay/8000 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(server.eventually { server.server.openConnectionCount == 1 })
            usleep(50_000)
            let started = Date()
            #expect(server.server.shutdown(grace: 0.2).forcedConnectionCount == 1)
            #expect(Date().timeIntervalSince(started) < 3)
            #expect(try client.readToEnd().isEmpty)
            #expect(server.server.openConnectionCount == 0)
        }
    }
}

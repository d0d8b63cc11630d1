import Dispatch
import Foundation
import SanityServer
import Synchronization
import Testing

extension LoopbackTests {
    /// Garbage and hostile clients: the server answers or closes, never hangs, crashes or leaks.
    @Suite struct RobustnessLoopbackTests {
        /// A seeded generator (SplitMix64), so a failing input can be reproduced from its index.
        struct SplitMix64: RandomNumberGenerator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var value = state
                value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
                value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
                return value ^ (value >> 31)
            }
        }

        static let validRequests = [
            "GET /anything?a=1 HTTP/1.1\r\nHost: t\r\nAccept: */*\r\n\r\n",
            "POST /anything HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "GET /headers HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        ]

        static let hostileRequests = [
            "GET / HTTP/1.1\r\nHost: t\r\nX: a\r\n b\r\n\r\n",
            "GET / HTTP/9.9\r\nHost: t\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n",
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999\r\n\r\n",
            "GET /\0 HTTP/1.1\r\nHost: t\r\n\r\n",
            "\r\n\r\n\r\n\r\n",
            "GET / HTTP/1.1\rHost: t\r\n\r\n",
        ]

        /// Request number `index`: random bytes, random text, a mutated valid request or a hostile one.
        static func input(_ index: Int) -> [UInt8] {
            var random = SplitMix64(state: UInt64(index))
            switch index % 4 {
            case 0:
                return (0..<Int.random(in: 1...400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 1:
                let alphabet = Array("GETPOST /:HTTP1.\r\n \tabc%?=&;,0123456789xyz\u{7f}".utf8)
                return (0..<Int.random(in: 1...400, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0 }
            case 2:
                var bytes = Array(validRequests[index / 4 % validRequests.count].utf8)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[position] =
                        [0, 10, 13, 32, 58, 127, 255, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)
                        ?? 0
                }
                return Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &random)))
            default:
                var bytes = Array(hostileRequests[index / 4 % hostileRequests.count].utf8)
                bytes.append(
                    contentsOf: (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                    })
                return bytes
            }
        }

        @Test func survivesTenThousandMalformedRequestsWithoutLeakingDescriptors() throws {
            let server = try TestServer(
                ServerConfiguration(maxDelay: 0.01, readDeadline: 2, maxHeaderBytes: 1024, maxBodyBytes: 1024))
            let port = server.address.port
            let baseline = openDescriptorCount(localPort: port)
            #expect(baseline == 1, "only the listening socket")
            let total = 10_000
            let workers = 4
            let budget = Date().addingTimeInterval(45)
            let tally = Mutex<(sent: Int, answered: Int, badResponses: [String])>((0, 0, []))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: total, by: workers) where Date() < budget {
                    guard let client = try? server.client(timeout: 5) else {
                        tally.withLock { $0.badResponses.append("#\(index): connect failed") }
                        continue
                    }
                    _ = try? client.send(Self.input(index))
                    client.finishSending()
                    let reply: [UInt8]
                    do {
                        reply = try client.readToEnd()
                    } catch {
                        tally.withLock { $0.badResponses.append("#\(index): \(error)") }
                        continue
                    }
                    let valid = reply.isEmpty || reply.starts(with: Array("HTTP/1.1 ".utf8))
                    tally.withLock {
                        $0.sent += 1
                        if !reply.isEmpty { $0.answered += 1 }
                        if !valid { $0.badResponses.append("#\(index): \(String(decoding: reply.prefix(40), as: UTF8.self))") }
                    }
                }
            }
            let result = tally.withLock { $0 }
            #expect(result.sent == total)
            #expect(result.answered > total / 2)
            #expect(result.badResponses.isEmpty, "\(result.badResponses.prefix(5))")

            let response = try server.request("GET /anything HTTP/1.1\r\nHost: after\r\n\r\n")
            #expect(response.status == 200)
            #expect(try response.json["method"] as? String == "GET")
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == 0 })
            #expect(
                server.eventually(within: 5) { openDescriptorCount(localPort: port) == baseline },
                "descriptors: \(baseline) before, \(openDescriptorCount(localPort: port)) after")
        }

        @Test func keepsServingWith500IdleConnectionsAboveTheLimit() throws {
            let limit = 32
            let server = try TestServer(ServerConfiguration(maxConnections: limit, readDeadline: 10))
            var idle: [TestClient] = []
            for _ in 0..<500 { idle.append(try server.client(timeout: 3)) }
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == limit })
            // The descriptor count sees the served connections (and the refused ones still lingering).
            #expect(openDescriptorCount(localPort: server.address.port) > limit)

            let started = Date()
            let response = try server.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n", timeout: 3)
            #expect(Date().timeIntervalSince(started) < 2)
            #expect(response.status == 200 || response.status == 503)
            if response.status == 503 {
                #expect(response.field("Retry-After") == "1")
                #expect(response.field("Connection") == "close")
            }
            // A connection above the limit was refused with a clean 503, not dropped.
            let refused = try #require(idle.last)
            #expect(try refused.readResponse().status == 503)

            idle.removeAll()
            #expect(server.eventually(within: 5) { server.server.openConnectionCount == 0 })
            #expect(try server.request("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
            let port = server.address.port
            #expect(server.eventually(within: 5) { openDescriptorCount(localPort: port) == 1 })
        }
    }
}

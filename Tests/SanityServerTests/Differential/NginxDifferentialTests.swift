import Dispatch
import Foundation
import SanityServer
import Synchronization
import Testing

/// Answers 200 to every request it is handed, as the nginx of the oracle does (`return 200`
/// behind a proxy that reads the body), so that what is compared is how requests are read, not
/// the routes (404 for an unknown path, 405 for CONNECT are `Router`'s, tested in RouterTests).
struct AnswersEveryRequest: RequestHandler {
    func answer(_ request: HTTPRequest, peer: SocketAddress, local: SocketAddress, responder: Responder) -> HandlerAnswer {
        .now(HTTPResponse(status: 200, fields: [], body: Array("ok\n".utf8)))
    }
}

/// One line of `Tests/Oracle/serve_differential.py`'s output.
struct NginxCase: Decodable, Sendable {
    var index: Int
    var seed: Int
    var kind: String
    var answers: Int
    var request: String
    var nginx: String

    var bytes: [UInt8] { Array(Data(base64Encoded: request) ?? Data()) }

    /// The file named by `STAGEBUILD_DIFFERENTIAL_SERVE`, or nothing when it is unset.
    static let variable = "STAGEBUILD_DIFFERENTIAL_SERVE"
    static var isConfigured: Bool { !(ProcessInfo.processInfo.environment[variable] ?? "").isEmpty }

    static func load() throws -> [NginxCase] {
        let path = ProcessInfo.processInfo.environment[variable] ?? ""
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(NginxCase.self, from: Data($0.utf8)) }
    }
}

/// Bytes as a Swift string literal would write them, for a failure message.
func escaped(_ bytes: [UInt8], limit: Int = 400) -> String {
    var text = ""
    for byte in bytes.prefix(limit) {
        switch byte {
        case 0x0D: text += "\\r"
        case 0x0A: text += "\\n"
        case 0x09: text += "\\t"
        case 0x5C: text += "\\\\"
        case 0x22: text += "\\\""
        case 0x20...0x7E: text += String(UnicodeScalar(byte))
        default: text += "\\u{\(String(byte, radix: 16))}"
        }
    }
    return bytes.count > limit ? text + "... (\(bytes.count) bytes)" : text
}

extension LoopbackTests {
    /// serve beside nginx 1.22 on the requests of `Tests/Oracle/serve_differential.py`: the same
    /// class of answer (2xx, 4xx, 5xx, closed, timeout) for each, except the documented
    /// differences (``KnownDifference``).
    @Suite struct NginxDifferentialTests {
        /// The classifier's wait, as the generator's default `--timeout`.
        static let timeout = 1.0

        /// What the comparison found.
        struct Tally {
            var agreed = 0
            var documented: [String: Int] = [:]
            var disagreements: [String] = []
        }

        /// The tally, shared by the comparing threads.
        final class SharedTally: Sendable {
            let mutex = Mutex(Tally())
            func withLock<Result>(_ body: (inout Tally) -> Result) -> Result { mutex.withLock { body(&$0) } }
        }

        /// Compares the cases `worker`, `worker + workers`, ... and counts into `tally`.
        static func compare(
            _ cases: [NginxCase], worker: Int, of workers: Int, at address: SocketAddress, into tally: SharedTally
        ) {
            for number in stride(from: worker, to: cases.count, by: workers) {
                let item = cases[number]
                let bytes = item.bytes
                // A wait that ran out where nginx answered is asked again with more time: on a
                // loaded machine serve's debug build can be slower than 1 s, nginx's never is.
                func ask(_ request: [UInt8]) throws -> String {
                    let first = try AnswerClass.of(request, answers: item.answers, at: address, timeout: timeout)
                    guard first != item.nginx, first.hasSuffix("timeout") else { return first }
                    return try AnswerClass.of(request, answers: item.answers, at: address, timeout: 5 * timeout)
                }
                do {
                    let serve = try ask(bytes)
                    if serve == item.nginx {
                        tally.withLock { $0.agreed += 1 }
                        continue
                    }
                    let attribution = try Attribution(bytes, nginx: item.nginx, serve: serve, ask: ask)
                    tally.withLock { tally in
                        if attribution.explains {
                            for name in attribution.names { tally.documented[name, default: 0] += 1 }
                        } else {
                            tally.disagreements.append(
                                "#\(item.index) (seed \(item.seed), \(item.kind)): nginx \(item.nginx), serve \(serve)"
                                    + (attribution.repairedServe.map { ", repaired (\(attribution.names)) \($0)" } ?? "")
                                    + ": \"\(escaped(bytes))\"")
                        }
                    }
                } catch {
                    tally.withLock { $0.disagreements.append("#\(item.index): \(error)") }
                }
            }
        }

        @Test(.enabled(if: NginxCase.isConfigured, "set \(NginxCase.variable) to a serve_differential.py output"))
        func answersAsNginxExceptDocumentedDifferences() throws {
            let cases = try NginxCase.load()
            let server = try TestServer(ServerConfiguration(), handler: AnswersEveryRequest())
            let address = server.address
            let tally = SharedTally()
            // Threads of their own: most of their time is spent waiting for answers, and
            // concurrentPerform would run only one per processor.
            let workers = 32
            let done = DispatchGroup()
            for worker in 0..<workers {
                done.enter()
                Thread {
                    defer { done.leave() }
                    Self.compare(cases, worker: worker, of: workers, at: address, into: tally)
                }.start()
            }
            done.wait()
            let result = tally.withLock { $0 }

            let documented = result.documented.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print(
                "serve beside nginx: \(cases.count) requests, \(result.agreed) agree, "
                    + "\(cases.count - result.agreed - result.disagreements.count) documented differences (\(documented)), "
                    + "\(result.disagreements.count) disagreements")
            for line in result.disagreements.sorted().prefix(100) { print("disagreement \(line)") }
            #expect(result.disagreements.isEmpty, "\(result.disagreements.sorted().prefix(30).joined(separator: "\n"))")
        }

        /// Each documented difference on its example: serve still answers it otherwise than nginx
        /// did (recorded from nginx 1.22.1), and the rule recognizes it, alone.
        @Test(arguments: KnownDifference.all)
        func documentedDifferenceStillHolds(_ difference: KnownDifference) throws {
            let server = try TestServer(ServerConfiguration(), handler: AnswersEveryRequest())
            let bytes = Array(difference.example.utf8)
            func ask(_ request: [UInt8]) throws -> String {
                // Each example answers in full, so its class has one word per request.
                try AnswerClass.of(
                    request, answers: difference.nginxClass.split(separator: " ").count, at: server.address,
                    timeout: Self.timeout)
            }
            let serve = try ask(bytes)
            #expect(serve != difference.nginxClass, "serve now answers as nginx: the difference is gone")
            let attribution = try Attribution(bytes, nginx: difference.nginxClass, serve: serve, ask: ask)
            #expect(attribution.explains)
            #expect(attribution.names == [difference.name])
        }

        /// A valid request is touched by no rule, and agreeing answers are no verdict's.
        @Test func noRuleAppliesToValidRequests() throws {
            let valid = [
                "GET /anything?a=1 HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nExpect: 100-continue\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
                "PUT /x HTTP/1.0\r\nContent-Length: 2\r\n\r\nok",
            ]
            for text in valid {
                var messages = RawMessage.split(Array(text.utf8))
                #expect(messages.count == 1)
                #expect(RawMessage.join(messages) == Array(text.utf8))
                for difference in KnownDifference.all {
                    switch difference.rule {
                    case .repair(let repair): #expect(!repair(&messages[0]), "\(difference.name) on \(text)")
                    case .verdict(let verdict): #expect(!verdict(messages, ["2xx"], ["2xx"]), "\(difference.name)")
                    }
                }
            }
        }
    }
}

import Foundation
import FoundationNetworking
import TestSupport
import Testing

/// Runs `stagebuild serve` as a process, the way a container runs it as PID 1.
@Suite(.serialized) struct ServeProcessTests {
    /// A running `stagebuild serve --port 0` with its first stdout line read.
    final class RunningServer {
        let process: BackgroundProcess
        let url: String

        init(_ arguments: [String] = []) throws {
            let process = try BackgroundProcess(
                try ProcessRun.builtExecutable("stagebuild"), ["serve", "--port", "0"] + arguments)
            url = try process.line(within: .seconds(10))
            self.process = process
        }

        /// Sends a signal and waits at most `seconds` for the exit status (`nil` when it had to
        /// be killed).
        func stop(with signal: Int32 = SIGTERM, within seconds: Double = 10) -> Int32? {
            process.stop(signal: signal, grace: .milliseconds(Int(seconds * 1000)))
        }

        /// Its standard error: the access log.
        var log: String { process.standardError }
    }

    /// One GET with URLSession's synchronous-style wait, bounded by `timeout` seconds.
    static func get(_ url: String, timeout: Double = 10) -> (status: Int, body: String)? {
        guard let target = URL(string: url) else { return nil }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        var request = URLRequest(url: target)
        request.timeoutInterval = timeout
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.value = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self))
            done.signal()
        }.resume()
        return done.wait(timeout: .now() + timeout + 1) == .success ? box.value : nil
    }

    final class ResultBox: @unchecked Sendable {
        var value: (Int, String)?
    }

    @Test func printsTheBoundAddressFirstAndLogsEachRequest() throws {
        let server = try RunningServer()
        #expect(server.url.hasPrefix("http://127.0.0.1:"), "first line: \(server.url)")
        let answer = try #require(Self.get(server.url + "/healthz"))
        #expect(answer.status == 200)
        #expect(server.stop() == 0)
        #expect(server.log.contains("\"GET /healthz HTTP/1.1\" 200"), "\(server.log)")
    }

    @Test func finishesARequestInFlightOnSigtermThenExitsZero() throws {
        let server = try RunningServer(["--grace", "5"])
        // The request goes out on a socket of this thread, so it is on the wire before the
        // signal whatever the machine's load (URLSession may start its task late).
        let connection = try Self.connect(to: server.url)
        defer { close(connection) }
        let request = "GET /delay/800 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        #expect(
            request.utf8.withContiguousStorageIfAvailable { send(connection, $0.baseAddress, $0.count, 0) } == request.utf8.count)
        usleep(300_000)
        let started = Date()
        let status = server.stop(with: SIGTERM)
        #expect(status == 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer = [UInt8](repeating: 0, count: 64)
        let received = recv(connection, &answer, answer.count, Int32(MSG_WAITALL))
        #expect(
            String(decoding: answer.prefix(max(0, received)), as: UTF8.self).hasPrefix("HTTP/1.1 200 "),
            "the request in flight was answered")
        #expect(Date().timeIntervalSince(started) < 5, "stopped well within the grace period")
    }

    /// A blocking TCP connection to `http://127.0.0.1:PORT`.
    static func connect(to url: String) throws -> Int32 {
        guard let port = URL(string: url)?.port else { throw CocoaError(.fileReadUnknown) }
        return try LoopbackPort.connect(port)
    }

    /// SIGTERM that arrives together with a new connection, the race a user found: the server
    /// must stop every time, not keep serving with the signal lost.
    @Test func stopsWhenSigtermRacesANewConnection() throws {
        for _ in 0..<8 {
            let server = try RunningServer()
            let url = server.url
            DispatchQueue.global().async { _ = Self.get(url + "/healthz", timeout: 3) }
            #expect(server.stop(with: SIGTERM, within: 10) == 0)
        }
    }

    /// A log reader that goes away must not end the server (SIGPIPE is ignored; the lines are
    /// dropped).
    @Test func keepsServingWhenTheLogReaderGoesAway() throws {
        let server = try RunningServer()
        server.process.stopReading(.standardError)
        for _ in 0..<3 {
            #expect(Self.get(server.url + "/healthz")?.status == 200)
            usleep(100_000)
        }
        #expect(server.stop() == 0)
    }

    @Test func stopsOnSigintToo() throws {
        let server = try RunningServer()
        #expect(server.stop(with: SIGINT) == 0)
    }

    @Test(arguments: [
        (["--port", "70000"], "error: --port must be 0...65535, got 70000\n"),
        (["--max-connections", "0"], "error: --max-connections must be at least 1, got 0\n"),
    ])
    func refusesValuesOutOfRangeNamingTheOption(arguments: [String], message: String) throws {
        let run = try ProcessRun.run(
            try ProcessRun.builtExecutable("stagebuild"), ["serve"] + arguments, limit: .seconds(30))
        #expect(run.status == 64)
        let text = run.stderr
        #expect(text.hasPrefix(message), "\(text)")
    }
}

import Foundation
import SanityServer
import Synchronization

/// A started server on a free loopback port that records its access log, and stops when the
/// test ends.
final class TestServer: Sendable {
    let server: SanityServer
    let address: SocketAddress
    private let recorder = LogRecorder()

    init(_ configuration: ServerConfiguration = ServerConfiguration(), handler: (any RequestHandler)? = nil) throws {
        var configuration = configuration
        configuration.port = 0
        let recorder = self.recorder
        server = SanityServer(configuration: configuration, handler: handler) { entries in entries.forEach(recorder.record) }
        address = try server.start()
    }

    deinit { server.shutdown(grace: 0) }

    var log: [AccessLogEntry] { recorder.entries }

    func client(timeout: Double = 5) throws -> TestClient { try TestClient(address, timeout: timeout) }

    /// Sends one request on a new connection and reads the answer.
    func request(_ text: String, timeout: Double = 5) throws -> TestResponse {
        let client = try client(timeout: timeout)
        try client.send(text)
        return try client.readResponse(toHead: text.hasPrefix("HEAD "))
    }

    /// Waits until a condition holds, checking every 5 ms for at most `seconds`.
    func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5000)
        }
        return condition()
    }
}

/// How many of this process's descriptors (`/proc/self/fd`) are TCP sockets whose local port is
/// `port`: the listening socket and every server-side connection, open or lingering. Other tests
/// running at the same time open descriptors too, so only these are compared before and after.
func openDescriptorCount(localPort port: Int) -> Int {
    var inodes: Set<String> = []
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        // String(contentsOfFile:) stops after the first 4 KiB of a /proc file; read to the end.
        guard let handle = FileHandle(forReadingAtPath: table), let data = try? handle.readToEnd() else { continue }
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ")
            guard columns.count > 9, let portText = columns[1].split(separator: ":").last,
                Int(portText, radix: 16) == port
            else { continue }
            inodes.insert(String(columns[9]))
        }
    }
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
            target.hasPrefix("socket:[")
        else { return false }
        return inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
}

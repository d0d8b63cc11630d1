import Foundation
import Glibc
import SanityServer

/// What a server answered to raw bytes, classified exactly as `Tests/Oracle/serve_differential.py`
/// classifies nginx's answers: `2xx`, `4xx`, ... for each final response (interim `1xx` ones are
/// skipped), then `closed` or `timeout` when fewer than the expected answers arrived, or `other`
/// for bytes that are not an HTTP/1.x response; joined by spaces.
enum AnswerClass {
    /// Sends `bytes` on a new connection and classifies up to `answers` final responses.
    ///
    /// - Parameters:
    ///   - bytes: The raw request, sent whole.
    ///   - answers: How many final responses to read: the number of pipelined requests.
    ///   - address: The server.
    ///   - timeout: Seconds, from the send, that all the answers may take.
    static func of(_ bytes: [UInt8], answers: Int, at address: SocketAddress, timeout: Double) throws -> String {
        let client = try TestClient(address, timeout: timeout)
        // The server may close before it read everything; what it answered still counts.
        try? client.send(bytes)
        let deadline = Date().addingTimeInterval(timeout)
        var pending: [UInt8] = []
        var ended = ""
        var buffer = [UInt8](repeating: 0, count: 65536)

        func fill() -> Bool {
            while true {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else {
                    ended = "timeout"
                    return false
                }
                var entry = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&entry, 1, Int32(max(1, (left * 1000).rounded(.up))))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { continue }  // The deadline check above ends the wait.
                let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    ended = "closed"
                    return false
                }
                pending.append(contentsOf: buffer[0..<count])
                return true
            }
        }

        let httpPrefix = Array("HTTP/1.".utf8)
        let separator = Array("\r\n\r\n".utf8)
        var classes: [String] = []
        func result(_ last: String? = nil) -> String { (classes + (last.map { [$0] } ?? [])).joined(separator: " ") }
        while classes.count < answers {
            var headEnd: Int?
            while headEnd == nil {
                if !httpPrefix.starts(with: pending.prefix(7)) { return result("other") }
                headEnd = pending.firstRange(of: separator)?.upperBound
                if headEnd == nil && !fill() { return result(pending.isEmpty ? ended : "other") }
            }
            guard let end = headEnd else { return result("other") }
            let lines = pending[0..<(end - 4)].split(separator: UInt8(ascii: "\n")).map { line in
                line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
            }
            let statusParts = (lines.first ?? []).split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard let statusLine = lines.first, statusLine.starts(with: httpPrefix), statusParts.count >= 2,
                statusParts[1].count == 3, statusParts[1].allSatisfy({ (0x30...0x39).contains($0) }),
                let status = Int(String(decoding: statusParts[1], as: UTF8.self))
            else { return result("other") }
            pending.removeFirst(end)
            if status < 200 { continue }
            classes.append("\(status / 100)xx")
            if classes.count == answers { break }
            var length = 0
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let name = String(decoding: line[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if name.lowercased() == "content-length", !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                    length = Int(value) ?? 0
                }
            }
            while pending.count < length {
                guard fill() else { return result(ended) }
            }
            pending.removeFirst(length)
        }
        return result()
    }
}

import Foundation

@testable import SanityServer

/// One request of raw, possibly malformed input, split as loosely as the known differences need:
/// the CR and LF bytes before it, its head lines (each with its line ending; the empty line that
/// ends the head is the last, when it arrived), and every byte after the head up to the next
/// request.
struct RawMessage: Equatable {
    struct Line: Equatable {
        var content: [UInt8]
        var ending: [UInt8]
    }

    var leading: [UInt8] = []
    var lines: [Line] = []
    var rest: [UInt8] = []

    /// Splits input into requests where serve's parser ends each one; the request it cannot read
    /// (malformed or incomplete) takes the rest of the input.
    static func split(_ bytes: [UInt8]) -> [RawMessage] {
        var messages: [RawMessage] = []
        var remaining = bytes[...]
        while !remaining.isEmpty {
            var parser = HTTPRequestParser()
            let consumed = ((try? parser.parse(Array(remaining))) ?? nil)?.consumedByteCount ?? remaining.count
            messages.append(RawMessage(remaining.prefix(consumed)))
            remaining = remaining.dropFirst(consumed)
        }
        return messages
    }

    /// The bytes of requests, in order.
    static func join(_ messages: [RawMessage]) -> [UInt8] { messages.flatMap(\.bytes) }

    init(_ bytes: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == 0x0D || bytes[index] == 0x0A { index += 1 }
        leading = Array(bytes[bytes.startIndex..<index])
        while index < bytes.endIndex {
            guard let lineFeed = bytes[index...].firstIndex(of: 0x0A) else {
                lines.append(Line(content: Array(bytes[index...]), ending: []))
                return
            }
            var content = Array(bytes[index..<lineFeed])
            var ending: [UInt8] = [0x0A]
            if content.last == 0x0D {
                content.removeLast()
                ending = [0x0D, 0x0A]
            }
            lines.append(Line(content: content, ending: ending))
            index = lineFeed + 1
            if content.isEmpty && lines.count > 1 { break }
        }
        rest = Array(bytes[index...])
    }

    var bytes: [UInt8] { leading + lines.flatMap { $0.content + $0.ending } + rest }

    /// The head's length from the request line through the empty line (or what arrived of it).
    var headLength: Int { lines.reduce(0) { $0 + $1.content.count + $1.ending.count } }

    var requestLine: [UInt8] { lines.first?.content ?? [] }

    /// The request line's words, split at runs of spaces.
    var words: [ArraySlice<UInt8>] { requestLine.split(separator: 0x20) }

    /// The indices of the field lines: between the request line and the empty line.
    var fieldIndices: Range<Int> {
        let end = lines.last?.content.isEmpty == true && lines.count > 1 ? lines.count - 1 : lines.count
        return min(1, end)..<end
    }

    /// A field line's name (before the first colon) and value (after it, SP and HTAB trimmed).
    func field(_ index: Int) -> (name: [UInt8], value: [UInt8])? {
        let content = lines[index].content
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var value = content[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        return (Array(content[..<colon]), Array(value))
    }

    /// The indices of the field lines named `name` (compared ignoring case).
    func fields(named name: String) -> [Int] {
        fieldIndices.filter { index in
            guard let field = field(index) else { return false }
            return String(decoding: field.name, as: UTF8.self).lowercased() == name
        }
    }

    /// The values of the fields named `name`, as text.
    func values(named name: String) -> [String] {
        fields(named: name).compactMap { field($0).map { String(decoding: $0.value, as: UTF8.self) } }
    }

    /// Whether serve reads the body as chunked: one `Transfer-Encoding` naming only `chunked`.
    var isChunked: Bool {
        values(named: "transfer-encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .init(charactersIn: " \t")).lowercased() }.filter { !$0.isEmpty } == ["chunked"]
    }

    /// Replaces this request with one serve refuses with 400 at once: the stand-in for a request
    /// nginx refuses with a 4xx that serve reads.
    mutating func refuse() {
        self = RawMessage(Array("\u{0}\r\n".utf8)[...])
    }
}

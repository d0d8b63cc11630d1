import Dispatch
import ProbeKit
import Synchronization

/// The URLs to probe as given, in order: the command line's, then each targets file's. They are
/// held as the bytes they were read as, with the place of each URL, so a million-line targets
/// file costs its own bytes and 16 bytes a URL rather than a `String` each; a URL becomes a
/// `String` when its call comes.
struct TargetList: Sendable {
    /// A URL as given: on the command line (`origin` is `nil`), or on a line of a targets file
    /// (`origin` is `FILE:LINE`, for messages).
    struct Target {
        /// The URL as written.
        var text: String
        /// The targets file as named; `nil` on the command line.
        var file: String?
        /// The 1-based line in the file.
        var line = 0

        /// `FILE:LINE` for messages; `nil` on the command line.
        var origin: String? { file.map { "\($0):\(line)" } }
    }

    /// Where one URL is: its bytes in ``bytes``, its line and the file it came from.
    private struct Entry: Sendable {
        var start: UInt32
        var length: UInt32
        var line: UInt32
        /// Index in ``files``, or -1 for the command line.
        var file: Int32
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    private var files: [String] = []

    /// How many URLs there are.
    var count: Int { entries.count }

    /// True when there are none.
    var isEmpty: Bool { entries.isEmpty }

    /// The URL at a position, with where it came from.
    ///
    /// - Parameter index: 0-based, below ``count``.
    subscript(index: Int) -> Target {
        let entry = entries[index]
        let text = withBytes(of: entry) { String(decoding: $0, as: UTF8.self) }
        return Target(text: text, file: entry.file < 0 ? nil : files[Int(entry.file)], line: Int(entry.line))
    }

    /// Calls `body` with the bytes of the URL at a position, without making a `String`.
    ///
    /// - Parameters:
    ///   - index: 0-based, below ``count``.
    ///   - body: Reads the URL's UTF-8.
    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(of: entries[index], body)
    }

    private func withBytes<Result>(of entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(entry.start)..<Int(entry.start + entry.length)]))
        }
    }

    /// Adds a URL given on the command line.
    ///
    /// - Parameter text: The argument.
    mutating func append(commandLine text: String) {
        entries.append(Entry(start: UInt32(bytes.count), length: UInt32(text.utf8.count), line: 0, file: -1))
        bytes += text.utf8
    }

    /// Adds the URLs of a targets file: one per line (LF; a CR before it is trimmed as a
    /// blank), blank lines and lines starting with `#` skipped, and a ` #` after a URL
    /// starting a comment (a URL never holds a raw space, so this cannot cut one).
    ///
    /// - Parameters:
    ///   - text: The file's text, or the next whole lines of a stream.
    ///   - file: The file as named in messages; lines of the same file as the last call's
    ///     continue it.
    ///   - firstLine: The 1-based number of the text's first line in the file.
    /// - Throws: ``TooLarge`` past 4 GiB of URLs, which 32-bit offsets cannot hold.
    mutating func append(linesOf text: String, file: String, firstLine: Int = 1) throws(TooLarge) {
        var text = text
        text.makeContiguousUTF8()
        if files.last != file { files.append(file) }
        let fileIndex = Int32(files.count - 1)
        let base = bytes.count
        guard base + text.utf8.count < Int(UInt32.max) else { throw TooLarge() }
        bytes += text.utf8
        bytes.withUnsafeBufferPointer { all in
            let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            var lineStart = base
            var number = UInt32(firstLine - 1)
            while lineStart < all.count {
                number += 1
                let lineEnd = all[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? all.count
                var end = lineEnd
                // Most lines hold no '#': only those are searched for " #".
                if var index = all[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: "#")) {
                    while index < lineEnd {
                        if all[index] == UInt8(ascii: "#"), index > lineStart, all[index - 1] == UInt8(ascii: " ") {
                            end = index - 1
                            break
                        }
                        index += 1
                    }
                }
                var start = lineStart
                while start < end, blank(all[start]) { start += 1 }
                while end > start, blank(all[end - 1]) { end -= 1 }
                lineStart = lineEnd + 1
                guard start < end, all[start] != UInt8(ascii: "#") else { continue }
                entries.append(Entry(start: UInt32(start), length: UInt32(end - start), line: number, file: fileIndex))
            }
        }
    }

    /// What a plan must look at after the shape check: the URLs without the plain shape (the
    /// first one too, whatever its shape), which need the full parse, and each plain URL whose
    /// scheme and host differ from the one before it, in index order.
    struct ShapeScan {
        /// `(index, plain parts)`; `nil` parts for a URL that needs the full parse.
        var events: [(index: Int, plain: PlainURL?)]
        /// Whether any plain URL is `http://`.
        var anyPlainHTTP: Bool
    }

    /// Checks every URL's shape (``PlainURL``) on all cores: for a million targets this is
    /// most of a plan's time.
    func scanShapes() -> ShapeScan {
        let chunks = count >= 65_536 ? 8 : 1
        let size = (count + chunks - 1) / chunks
        let parts = Mutex<[Int: ShapeScan]>([:])
        let scanChunk: @Sendable (Int) -> Void = { chunk in
            var scan = ShapeScan(events: [], anyPlainHTTP: false)
            var previous: PlainURL?
            for index in chunk * size..<min(count, (chunk + 1) * size) {
                guard index > 0, let plain = withBytes(at: index, PlainURL.init(bytes:)) else {
                    scan.events.append((index, nil))
                    previous = nil
                    continue
                }
                scan.anyPlainHTTP = scan.anyPlainHTTP || !plain.isHTTPS
                if plain != previous { scan.events.append((index, plain)) }
                previous = plain
            }
            parts.withLock { $0[chunk] = scan }
        }
        // One chunk runs here: Dispatch's worker threads would cost a short run (one target)
        // their start-up.
        if chunks == 1 { scanChunk(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: scanChunk) }
        return parts.withLock { parts in
            var scan = ShapeScan(events: [], anyPlainHTTP: false)
            for chunk in 0..<chunks {
                guard let part = parts[chunk] else { continue }
                scan.events += part.events
                scan.anyPlainHTTP = scan.anyPlainHTTP || part.anyPlainHTTP
            }
            return scan
        }
    }

    /// The targets files together hold more than 32-bit offsets can reach.
    struct TooLarge: Error {}
}

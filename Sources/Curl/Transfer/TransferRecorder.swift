import CCurl
import Serialization

/// Collects what libcurl's callbacks deliver during one transfer: body bytes (bounded), header
/// lines grouped into heads, and debug output (bounded). Used on the transferring thread only.
final class TransferRecorder {
    /// Header bytes kept per transfer; libcurl 7.88 itself has no overall limit.
    static let maxHeaderBytes = 1_048_576

    let maxBodyBytes: Int
    let maxDebugLogBytes: Int
    let cancellation: TransferCancellation?

    private(set) var body: [UInt8] = []
    private(set) var bodyByteCount = 0
    private(set) var heads: [ResponseHead] = []
    private(set) var debugLog = DebugLog()
    /// The negotiated TLS of the connection the last header line came on.
    var tlsSession: TLSSession?
    private var headerBytes = 0
    private var debugBytes = 0

    init(maxBodyBytes: Int, maxDebugLogBytes: Int, cancellation: TransferCancellation?) {
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.maxDebugLogBytes = max(0, maxDebugLogBytes)
        self.cancellation = cancellation
    }

    /// Whether the transfer should stop (`CURLOPT_XFERINFOFUNCTION` returns non-zero).
    var shouldAbort: Bool { cancellation?.isCancelled ?? false }

    /// `CURLOPT_WRITEFUNCTION`: keeps the first `maxBodyBytes` bytes, counts all.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        bodyByteCount += bytes.count
        let room = maxBodyBytes - body.count
        if room > 0 {
            body.append(contentsOf: bytes.prefix(room))
        }
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line with its CR LF; a status line starts a head.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        headerBytes += bytes.count
        guard headerBytes <= Self.maxHeaderBytes else { return }
        var line = String(decoding: bytes, as: UTF8.self)
        while line.hasSuffix("\n") || line.hasSuffix("\r") || line.hasSuffix("\r\n") {
            line.removeLast()
        }
        if line.hasPrefix("HTTP/") {
            heads.append(ResponseHead(statusLine: line))
            return
        }
        guard !line.isEmpty else { return }
        if heads.isEmpty {
            heads.append(ResponseHead(statusLine: ""))
        }
        let last = heads.count - 1
        if line.first?.isHTTPWhitespace == true {
            // Obsolete line folding (RFC 9112 section 5.2): continue the previous value.
            if let previous = heads[last].fields.indices.last {
                heads[last].fields[previous].value += " " + line.trimmingLineWhitespace()
            }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingLineWhitespace()
        heads[last].fields.append(HeaderField(name: name, value: value))
    }

    /// `CURLOPT_DEBUGFUNCTION`: keeps text and header output, redacted, up to the byte limit.
    func receiveDebug(type: curl_infotype, _ bytes: UnsafeRawBufferPointer) {
        let kind: DebugEntry.Kind
        switch type {
        case CURLINFO_TEXT: kind = .text
        case CURLINFO_HEADER_IN: kind = .headerIn
        case CURLINFO_HEADER_OUT: kind = .headerOut
        default: return
        }
        guard !debugLog.isTruncated else { return }
        guard debugBytes + bytes.count <= maxDebugLogBytes else {
            debugLog.isTruncated = true
            return
        }
        debugBytes += bytes.count
        let raw = String(decoding: bytes, as: UTF8.self)
        let text = kind == .text ? raw : Redaction.headerBlock(raw)
        debugLog.entries.append(DebugEntry(kind: kind, text: text))
    }
}

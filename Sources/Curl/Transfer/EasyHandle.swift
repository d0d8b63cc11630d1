import CCurl

/// One libcurl easy handle (`CURL*`), owned: created in `init`, cleaned up in `deinit`.
///
/// Set typed options with ``set(_:)``, then run the transfer with
/// ``perform(maxBodyBytes:maxDebugLogBytes:cancellation:)``, as often as needed. A handle is
/// used by one thread at a time (libcurl's rule for easy handles); cancel it from another
/// thread through a ``TransferCancellation``.
///
/// Defaults set in `init`, on top of libcurl's own:
/// - `CURLOPT_NOSIGNAL` 1, always: libcurl never installs signal handlers (required for threads);
/// - `CURLOPT_PROXY` `""` and `CURLOPT_NOPROXY` `""`: libcurl never reads `http_proxy`,
///   `https_proxy`, `all_proxy` or `no_proxy` from the process environment; a caller sets
///   the proxy explicitly (the environment is the caller's input, not libcurl's);
/// - `CURLOPT_PROTOCOLS_STR` `"http,https"`;
/// - `CURLOPT_ERRORBUFFER`, `CURLOPT_WRITEFUNCTION`, `CURLOPT_HEADERFUNCTION`,
///   `CURLOPT_XFERINFOFUNCTION` (with `CURLOPT_NOPROGRESS` 0) and `CURLOPT_DEBUGFUNCTION`:
///   the handle's own collectors; `CURLOPT_VERBOSE` output is captured, never printed.
public final class EasyHandle {
    private let handle: UnsafeMutableRawPointer
    /// A multi handle of its own, so a transfer can wait in `curl_multi_poll` and be woken by
    /// `curl_multi_wakeup` (see ``TransferCancellation``).
    private let multi: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: `CURL_ERROR_SIZE` bytes that live as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Lists handed to libcurl, which does not copy them, by option name.
    private var lists: [String: StringList] = [:]

    /// The text written to `errorBuffer` when the caller's ``TransferCancellation`` ended a transfer.
    static let cancelledMessage = "Operation cancelled by the caller"

    /// A handle with the defaults listed on the type.
    ///
    /// - Throws: ``CurlError`` when `curl_global_init`, `curl_easy_init` or `curl_multi_init`
    ///   fails (``CurlCode/failedInit``), or a default option is refused.
    public init() throws(CurlError) {
        try CurlLibrary.initialize()
        guard let easy = curl_easy_init() else {
            throw CurlError(code: .failedInit, context: "curl_easy_init")
        }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            throw CurlError(code: .failedInit, context: "curl_multi_init")
        }
        self.handle = easy
        self.multi = multi
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try installDefaults()
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sets one option (`curl_easy_setopt`).
    ///
    /// - Parameter option: the option and its value.
    /// - Throws: ``CurlError`` with libcurl's code, e.g. ``CurlCode/unsupportedProtocol`` for an
    ///   unknown scheme in ``EasyOption/protocols(_:)``; `context` names the option. A negative
    ///   timeout gives ``CurlCode/badFunctionArgument`` from this type itself: libcurl 7.88.1
    ///   would take it silently as "no limit".
    public func set(_ option: EasyOption) throws(CurlError) {
        let name = option.name
        switch option {
        case .url(let value): try setString(CURLOPT_URL, value, name)
        case .proxy(let value): try setString(CURLOPT_PROXY, value, name)
        case .proxyType(let type): try setLong(CURLOPT_PROXYTYPE, type.curlValue, name)
        case .proxyUsername(let value): try setString(CURLOPT_PROXYUSERNAME, value, name)
        case .proxyPassword(let value): try setString(CURLOPT_PROXYPASSWORD, value, name)
        case .proxyTunnel(let on): try setLong(CURLOPT_HTTPPROXYTUNNEL, on ? 1 : 0, name)
        case .noProxy(let value): try setString(CURLOPT_NOPROXY, value, name)
        case .caInfo(let path): try setString(CURLOPT_CAINFO, path, name)
        case .proxyCAInfo(let path): try setString(CURLOPT_PROXY_CAINFO, path, name)
        case .verifyPeer(let on): try setLong(CURLOPT_SSL_VERIFYPEER, on ? 1 : 0, name)
        case .verifyHost(let on): try setLong(CURLOPT_SSL_VERIFYHOST, on ? 2 : 0, name)
        case .proxyVerifyPeer(let on): try setLong(CURLOPT_PROXY_SSL_VERIFYPEER, on ? 1 : 0, name)
        case .proxyVerifyHost(let on): try setLong(CURLOPT_PROXY_SSL_VERIFYHOST, on ? 2 : 0, name)
        case .pinnedPublicKey(let value): try setString(CURLOPT_PINNEDPUBLICKEY, value, name)
        case .proxyPinnedPublicKey(let value): try setString(CURLOPT_PROXY_PINNEDPUBLICKEY, value, name)
        case .resolve(let entries): try setList(CURLOPT_RESOLVE, entries, name)
        case .connectTo(let entries): try setList(CURLOPT_CONNECT_TO, entries, name)
        case .connectTimeout(let milliseconds):
            try requireNonNegative(milliseconds, name)
            try setLong(CURLOPT_CONNECTTIMEOUT_MS, milliseconds, name)
        case .timeout(let milliseconds):
            try requireNonNegative(milliseconds, name)
            try setLong(CURLOPT_TIMEOUT_MS, milliseconds, name)
        case .customRequest(let method): try setString(CURLOPT_CUSTOMREQUEST, method, name)
        case .httpHeaders(let lines): try setList(CURLOPT_HTTPHEADER, lines, name)
        case .proxyHeaders(let lines): try setList(CURLOPT_PROXYHEADER, lines, name)
        case .userAgent(let agent): try setString(CURLOPT_USERAGENT, agent, name)
        case .noBody(let on): try setLong(CURLOPT_NOBODY, on ? 1 : 0, name)
        case .certInfo(let on): try setLong(CURLOPT_CERTINFO, on ? 1 : 0, name)
        case .verbose(let on): try setLong(CURLOPT_VERBOSE, on ? 1 : 0, name)
        case .protocols(let list): try setString(CURLOPT_PROTOCOLS_STR, list, name)
        case .freshConnect(let on): try setLong(CURLOPT_FRESH_CONNECT, on ? 1 : 0, name)
        case .proxyAuth(let schemes): try setLong(CURLOPT_PROXYAUTH, schemes.rawValue, name)
        case .tlsVersions(let minimum, let maximum):
            try setLong(CURLOPT_SSLVERSION, minimum.curlMinimum | (maximum?.curlMaximum ?? 0), name)
        case .clientCertificate(let path): try setString(CURLOPT_SSLCERT, path, name)
        case .clientKey(let path): try setString(CURLOPT_SSLKEY, path, name)
        case .httpVersion(let version):
            let value = version == .http1_1 ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS
            try setLong(CURLOPT_HTTP_VERSION, value, name)
        case .acceptEncoding(let codings): try setString(CURLOPT_ACCEPT_ENCODING, codings, name)
        case .ipFamily(let family): try setLong(CURLOPT_IPRESOLVE, family == .ipv4 ? 1 : 2, name)
        case .pathAsIs(let on): try setLong(CURLOPT_PATH_AS_IS, on ? 1 : 0, name)
        case .postFields(let bytes):
            // The size first: COPYPOSTFIELDS copies that many bytes (a body may hold NUL).
            try check(ccurl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)), name)
            // Never an empty buffer: its base address would be nil, which libcurl reads as "no body".
            var copy = bytes.isEmpty ? [0] : bytes
            let code = copy.withUnsafeMutableBytes { ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            try check(code, name)
        }
    }

    /// Sets options in order, stopping at the first refused one.
    ///
    /// - Parameter options: the options.
    /// - Throws: ``CurlError`` as ``set(_:)``.
    public func set(_ options: [EasyOption]) throws(CurlError) {
        for option in options {
            try set(option)
        }
    }

    /// Runs the transfer with the options set so far and waits for its end.
    ///
    /// Blocks the calling thread. The transfer ends at the first of: done, a libcurl error,
    /// `CURLOPT_CONNECTTIMEOUT_MS`/`CURLOPT_TIMEOUT_MS`, or `cancellation`.
    ///
    /// - Parameters:
    ///   - maxBodyBytes: body bytes kept, in bytes (default 1 MiB); the rest is read and
    ///     counted, not kept (see ``CurlResponse/isBodyTruncated``).
    ///   - maxDebugLogBytes: debug output kept when `CURLOPT_VERBOSE` is on, in bytes
    ///     (default 256 KiB).
    ///   - cancellation: a switch another thread may turn on to end the transfer.
    /// - Returns: status, heads, body, timings, addresses, certificates and debug log.
    /// - Throws: ``CurlError`` with the transfer's `CURLcode`, curl's `CURLOPT_ERRORBUFFER` text
    ///   and what was collected (``CurlError/partialResponse``). Cancellation gives
    ///   ``CurlCode/abortedByCallback``, also when `cancellation` was on before the call.
    public func perform(
        maxBodyBytes: Int = 1_048_576, maxDebugLogBytes: Int = 262_144, cancellation: TransferCancellation? = nil
    ) throws(CurlError) -> CurlResponse {
        if cancellation?.isCancelled == true {
            throw CurlError(code: .abortedByCallback, message: Self.cancelledMessage, partialResponse: CurlResponse())
        }
        let recorder = TransferRecorder(
            maxBodyBytes: maxBodyBytes, maxDebugLogBytes: maxDebugLogBytes, cancellation: cancellation)
        defer { withExtendedLifetime(recorder) {} }
        try attach(Unmanaged.passUnretained(recorder).toOpaque())
        defer { try? attach(nil) }
        errorBuffer[0] = 0

        let (code, cancelledByCaller) = try run(cancellation: cancellation)
        let response = collectResponse(recorder)
        guard code != CURLE_OK else { return response }
        let message = cancelledByCaller ? Self.cancelledMessage : errorText()
        throw CurlError(
            code: CurlCode(rawValue: Int32(bitPattern: code.rawValue)), message: message, partialResponse: response)
    }

    // MARK: - Transfer loop

    /// Drives the transfer through the handle's multi handle until libcurl reports it done or
    /// `cancellation` turns on; returns the `CURLcode` and whether the caller cancelled.
    private func run(cancellation: TransferCancellation?) throws(CurlError) -> (CURLcode, Bool) {
        try checkMulti(curl_multi_add_handle(multi, handle), "curl_multi_add_handle")
        cancellation?.register(multi: multi)
        defer {
            cancellation?.unregister(multi: multi)
            _ = curl_multi_remove_handle(multi, handle)
        }
        var running: Int32 = 0
        while true {
            if cancellation?.isCancelled == true {
                return (CURLE_ABORTED_BY_CALLBACK, true)
            }
            try checkMulti(curl_multi_perform(multi, &running), "curl_multi_perform")
            if let code = finishedCode() {
                return (code, false)
            }
            if running == 0 {
                throw CurlError(code: .failedInit, message: "transfer ended without a result", context: "curl_multi_info_read")
            }
            // Waits for network activity, libcurl's next timer, or curl_multi_wakeup; at most 1 s.
            try checkMulti(curl_multi_poll(multi, nil, 0, 1000, nil), "curl_multi_poll")
        }
    }

    /// The result of this handle's `CURLMSG_DONE` message, if libcurl has posted it.
    private func finishedCode() -> CURLcode? {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE {
                return ccurl_message_result(message)
            }
        }
        return nil
    }

    // MARK: - Options

    private func installDefaults() throws(CurlError) {
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try setLong(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try setString(CURLOPT_PROXY, "", "CURLOPT_PROXY")
        try setString(CURLOPT_NOPROXY, "", "CURLOPT_NOPROXY")
        try setString(CURLOPT_PROTOCOLS_STR, "http,https", "CURLOPT_PROTOCOLS_STR")
        try setLong(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")
        let write: ccurl_write_callback = { data, size, count, context in
            let length = size * count
            guard let context else { return length }
            let recorder = Unmanaged<TransferRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.receiveBody(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        try check(ccurl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, write), "CURLOPT_WRITEFUNCTION")
        let header: ccurl_write_callback = { data, size, count, context in
            let length = size * count
            guard let context else { return length }
            let recorder = Unmanaged<TransferRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }
        try check(ccurl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, header), "CURLOPT_HEADERFUNCTION")
        let progress: ccurl_xferinfo_callback = { context, _, _, _, _ in
            guard let context else { return 0 }
            let recorder = Unmanaged<TransferRecorder>.fromOpaque(context).takeUnretainedValue()
            return recorder.shouldAbort ? 1 : 0
        }
        try check(ccurl_easy_setopt_xferinfo_function(handle, progress), "CURLOPT_XFERINFOFUNCTION")
        let debug: ccurl_debug_callback = { handle, type, data, size, context in
            guard let context else { return 0 }
            let recorder = Unmanaged<TransferRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.receiveDebug(type: type, UnsafeRawBufferPointer(start: data, count: size))
            // A status line received: the handshake of the connection it came on is done; the
            // last one is the final response's, on the target's connection. One look per
            // response, not per header line. libcurl's "SSL connection using" line ends a
            // handshake too: a call refused after it (a pinned key that does not match) gets no
            // status line. Through an https:// proxy, CURLINFO_TLS_SSL_PTR names the proxy's
            // session until the target's is up: ProbeKit sets such a session aside.
            if let handle, let data,
                (type == CURLINFO_HEADER_IN && size >= 5
                    && UnsafeRawBufferPointer(start: data, count: 5).elementsEqual("HTTP/".utf8))
                    || (type == CURLINFO_TEXT && size >= EasyHandle.handshakeLine.count
                        && UnsafeRawBufferPointer(start: data, count: EasyHandle.handshakeLine.count).elementsEqual(
                            EasyHandle.handshakeLine)),
                let session = EasyHandle.tlsSession(of: handle)
            {
                recorder.tlsSession = session
            }
            return 0
        }
        try check(ccurl_easy_setopt_debug_function(handle, debug), "CURLOPT_DEBUGFUNCTION")
    }

    /// Points every callback's context at a recorder, or at nothing between transfers (the
    /// callbacks then ignore what they get: libcurl may still report closing connections).
    private func attach(_ context: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "CURLOPT_XFERINFODATA")
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_DEBUGDATA, context), "CURLOPT_DEBUGDATA")
    }

    private func setLong(_ option: CURLoption, _ value: Int, _ name: String) throws(CurlError) {
        try check(ccurl_easy_setopt_long(handle, option, value), name)
    }

    private func setString(_ option: CURLoption, _ value: String, _ name: String) throws(CurlError) {
        try check(ccurl_easy_setopt_string(handle, option, value), name)
    }

    private func setList(_ option: CURLoption, _ entries: [String], _ name: String) throws(CurlError) {
        let list = try StringList(entries)
        try check(ccurl_easy_setopt_slist(handle, option, list.head), name)
        lists[name] = list
    }

    private func requireNonNegative(_ milliseconds: Int, _ name: String) throws(CurlError) {
        guard milliseconds < 0 else { return }
        throw CurlError(
            code: .badFunctionArgument, message: "\(name) must be 0 or more milliseconds, not \(milliseconds)",
            context: "curl_easy_setopt(\(name))")
    }

    private func check(_ code: CURLcode, _ option: String) throws(CurlError) {
        guard code != CURLE_OK else { return }
        throw CurlError(
            code: CurlCode(rawValue: Int32(bitPattern: code.rawValue)), message: errorText(),
            context: "curl_easy_setopt(\(option))")
    }

    private func checkMulti(_ code: CURLMcode, _ call: String) throws(CurlError) {
        guard code != CURLM_OK else { return }
        throw CurlError(code: .failedInit, message: String(cString: curl_multi_strerror(code)), context: call)
    }

    /// `CURLOPT_ERRORBUFFER`'s text without a trailing newline.
    private func errorText() -> String {
        var text = String(cString: errorBuffer)
        while text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }

    // MARK: - Infos

    /// Reads the transfer's infos (`curl_easy_getinfo`) and the recorder's collections.
    private func collectResponse(_ recorder: TransferRecorder) -> CurlResponse {
        let timings = TransferTimings(
            nameLookup: milliseconds(CURLINFO_NAMELOOKUP_TIME_T),
            connect: milliseconds(CURLINFO_CONNECT_TIME_T),
            appConnect: milliseconds(CURLINFO_APPCONNECT_TIME_T),
            preTransfer: milliseconds(CURLINFO_PRETRANSFER_TIME_T),
            startTransfer: milliseconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: milliseconds(CURLINFO_TOTAL_TIME_T))
        let ip = string(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        let port = long(CURLINFO_PRIMARY_PORT)
        var response = CurlResponse(
            statusCode: long(CURLINFO_RESPONSE_CODE),
            connectStatusCode: long(CURLINFO_HTTP_CONNECTCODE),
            heads: recorder.heads,
            body: recorder.body,
            bodyByteCount: recorder.bodyByteCount,
            timings: timings,
            primaryIP: ip,
            primaryPort: port == 0 ? nil : port,
            effectiveURL: string(CURLINFO_EFFECTIVE_URL).map(Redaction.url),
            certificates: certificates(),
            tlsVerifyResult: long(CURLINFO_SSL_VERIFYRESULT),
            proxyTLSVerifyResult: long(CURLINFO_PROXY_SSL_VERIFYRESULT),
            proxyErrorCode: long(CURLINFO_PROXY_ERROR),
            debugLog: recorder.debugLog, tlsSession: recorder.tlsSession)
        response.httpVersion = long(CURLINFO_HTTP_VERSION)
        return response
    }

    /// The start of libcurl's text line after a finished handshake (OpenSSL backend:
    /// "SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384").
    static let handshakeLine = Array("SSL connection using ".utf8)

    /// The negotiated TLS of a handle's connection, while the transfer holds it: libcurl
    /// detaches the connection when the transfer is done.
    static func tlsSession(of handle: UnsafeMutableRawPointer) -> TLSSession? {
        var version: UnsafePointer<CChar>?
        var cipher: UnsafePointer<CChar>?
        var alpn: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        guard ccurl_tls_session(handle, &version, &cipher, &alpn, &alpnLength) == 1 else { return nil }
        let protocolName = alpn.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        return TLSSession(
            version: version.map { String(cString: $0) }, cipher: cipher.map { String(cString: $0) },
            alpn: protocolName.flatMap { $0.isEmpty ? nil : $0 })
    }

    private func long(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A `CURLINFO_*_TIME_T` value (microseconds) in milliseconds.
    private func milliseconds(_ info: CURLINFO) -> Double {
        var value: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(handle, info, &value) == CURLE_OK else { return 0 }
        return Double(value) / 1000
    }

    /// `CURLINFO_CERTINFO`: each certificate's `Name:value` lines.
    private func certificates() -> [PeerCertificate] {
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard ccurl_easy_getinfo_certinfo(handle, &info) == CURLE_OK, let info,
            let chain = info.pointee.certinfo
        else { return [] }
        var result: [PeerCertificate] = []
        for index in 0..<Int(max(0, info.pointee.num_of_certs)) {
            var fields: [HeaderField] = []
            var node = chain[index]
            while let current = node {
                if let data = current.pointee.data {
                    let line = String(cString: data)
                    if let colon = line.firstIndex(of: ":") {
                        let value = String(line[line.index(after: colon)...])
                        fields.append(HeaderField(name: String(line[..<colon]), value: value))
                    }
                }
                node = current.pointee.next
            }
            result.append(PeerCertificate(fields: fields))
        }
        return result
    }
}

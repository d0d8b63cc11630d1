import CCurl

/// Process-wide libcurl state: the one `curl_global_init` call and the library's identity.
///
/// libcurl requires `curl_global_init` to run once before any other call and never
/// concurrently with itself (libcurl's `curl_global_init(3)`). A Swift global or static
/// `let` is initialized exactly once, thread-safely, on first use, which gives that rule.
/// `curl_global_cleanup` is never called: the state lives until the process ends.
public enum CurlLibrary {
    /// The raw `CURLcode` of the single `curl_global_init(CURL_GLOBAL_ALL)` call.
    private static let initializationCode: UInt32 = ccurl_global_init_all().rawValue

    /// Runs `curl_global_init(CURL_GLOBAL_ALL)` on the first call, and only then.
    ///
    /// Every ``EasyHandle`` calls this before `curl_easy_init`; calling it again is free.
    ///
    /// - Throws: ``CurlError`` with the code `curl_global_init` returned (usually
    ///   ``CurlCode/failedInit`` or ``CurlCode/outOfMemory``) when initialization failed.
    public static func initialize() throws(CurlError) {
        let code = initializationCode
        if code != CURLE_OK.rawValue {
            throw CurlError(code: CurlCode(rawValue: Int32(bitPattern: code)), context: "curl_global_init")
        }
    }

    /// libcurl's version, e.g. `"7.88.1"` (`curl_version_info`, field `version`).
    public static var version: String {
        guard let info = ccurl_version_info_now(), let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }

    /// The TLS library libcurl was built with, e.g. `"OpenSSL/3.0.19"`, or `nil` without TLS
    /// (`curl_version_info`, field `ssl_version`).
    public static var tlsVersion: String? {
        guard let info = ccurl_version_info_now(), let text = info.pointee.ssl_version else { return nil }
        return String(cString: text)
    }
}

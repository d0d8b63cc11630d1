import Curl

extension CurlResponse {
    /// Whether the proxy's answer to CONNECT ended with a 2xx status and a complete header
    /// block, so the tunnel was open: libcurl 7.88.1 logs "CONNECT phase completed" then
    /// (`lib/http_proxy.c`). Its CONNECT status code is set as soon as the status line arrives,
    /// so a proxy that never ends its headers has a code but no tunnel.
    var completedConnect: Bool { debugLog.contains("CONNECT phase completed") }
}

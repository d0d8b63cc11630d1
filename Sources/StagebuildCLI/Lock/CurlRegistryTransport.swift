import Curl
import Foundation
import ProbeKit
import StageKit

/// The registry transport of `stagebuild lock`: one libcurl easy handle per request, the
/// proxy chosen exactly as curl (and `stagebuild probe`) chooses it from `--proxy`,
/// `--noproxy` and the environment, TLS verified (with `--cacert` trusted when given), and
/// every call bounded by a connect deadline and a total deadline.
///
/// It lives in the CLI, not in StageKit, so that StageKit holds no network code: StageKit
/// speaks the registry protocol over the `RegistryTransport` protocol, and the CLI, which
/// already chooses every side effect, plugs libcurl in.
struct CurlRegistryTransport: RegistryTransport {
    /// Bodies larger than this fail, in bytes: 4 MiB for registries (manifests and token
    /// answers are small; registries cap manifests at 4 MiB); the Debian archive's indexes
    /// are larger (bookworm's main `Packages.xz` for amd64: about 9 MB).
    var maxBodyBytes = 4 * 1_048_576

    /// Proxy settings from the command line and the environment.
    var proxy: ProxyConfiguration
    /// The scheme a proxy's 407 is answered with (`--proxy-digest`, ...).
    var proxyAuthentication: ProxyAuthentication = .basic
    /// A PEM file of CA certificates to trust (`CURLOPT_CAINFO`), or `nil` for the system's.
    var caFile: String?
    /// Limit for connecting (TCP, proxy CONNECT, TLS handshake), seconds.
    var connectTimeout: Double
    /// Limit for each whole call, seconds.
    var maxTime: Double

    func send(_ request: RegistryRequest) throws(RegistryTransportError) -> RegistryResponse {
        guard let url = URL(string: request.url) else { throw RegistryTransportError(.other, "invalid URL \(request.url)") }
        let route: ProxyRoute
        do {
            route = try proxy.route(for: url)
        } catch {
            throw RegistryTransportError(.unreachable, "proxy setting: \(error.description)")
        }
        var options: [EasyOption] = [
            .url(request.url), .httpHeaders(request.headerLines),
            .connectTimeout(milliseconds: Int((connectTimeout * 1000).rounded(.up))),
            .timeout(milliseconds: Int((maxTime * 1000).rounded(.up))),
        ]
        options += route.curlOptions(authentication: proxyAuthentication)
        switch request.method {
        case "HEAD": options.append(.noBody(true))
        case "GET": break
        default: options.append(.customRequest(request.method))
        }
        if let caFile { options.append(.caInfo(path: caFile)) }
        let response: CurlResponse
        do {
            let handle = try EasyHandle()
            try handle.set(options)
            response = try handle.perform(maxBodyBytes: maxBodyBytes)
        } catch {
            let via = route.server.map { " (through proxy \($0))" } ?? ""
            throw RegistryTransportError(Self.kind(of: error.code), error.reason + via)
        }
        if response.isBodyTruncated {
            throw RegistryTransportError(.other, "the answer is larger than \(maxBodyBytes) bytes")
        }
        return RegistryResponse(
            statusCode: response.statusCode,
            headers: response.headers.map { RegistryResponse.Field(name: $0.name, value: $0.value) }, body: response.body)
    }

    /// What a `CURLcode` means for a registry call.
    static func kind(of code: CurlCode) -> RegistryTransportError.Kind {
        switch code {
        case .couldntResolveHost, .couldntResolveProxy, .couldntConnect, .proxy, .gotNothing, .sendError, .recvError:
            .unreachable
        case .operationTimedOut:
            .timedOut
        case .sslConnectError, .sslCertProblem, .peerFailedVerification, .sslCACertBadFile, .sslPinnedPublicKeyNotMatch:
            .tls
        default:
            .other
        }
    }
}

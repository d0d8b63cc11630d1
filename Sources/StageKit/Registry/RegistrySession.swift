import Foundation
import Serialization

/// The requests of one resolution: the authorization won so far, redirects, and errors that
/// name the image and the request.
struct RegistrySession {
    let client: RegistryClient
    let reference: ImageReference
    /// The `Authorization` value to send to the registry host, once a challenge was answered.
    var authorization: String?
    static let maxRedirects = 5

    init(client: RegistryClient, reference: ImageReference) {
        self.client = client
        self.reference = reference
    }

    /// An error about this image.
    func error(_ request: RegistryRequest, _ kind: RegistryError.Kind, _ message: String) -> RegistryError {
        RegistryError(image: reference.written, hop: request.description, kind: kind, message: message)
    }

    /// The media type of a manifest answer, which must be one of the four manifest types asked
    /// for: anything else (an HTML page, a text/plain echo, a captive portal) is no image, and
    /// pinning its hash would pin nonsense.
    ///
    /// - Throws: `RegistryError` of kind `unexpectedAnswer` naming what was served.
    func manifestMediaType(_ request: RegistryRequest, _ response: RegistryResponse) throws(RegistryError) -> String {
        let mediaType = RegistryClient.mediaType(of: response)
        guard RegistryClient.manifestMediaTypes.contains(mediaType) else {
            let served = mediaType.isEmpty ? "no media type" : mediaType
            throw error(
                request, .unexpectedAnswer,
                "the answer is \(served), not an image manifest (OCI image index or manifest, Docker manifest list or v2 "
                    + "manifest); is \(reference.domain) a container registry?")
        }
        return mediaType
    }

    /// Sends a manifest request, answering one `401` challenge, and returns a `200` answer.
    ///
    /// - Returns: The last request sent and its answer.
    mutating func fetch(_ method: String, _ url: String) throws(RegistryError) -> (RegistryRequest, RegistryResponse) {
        let accept = "Accept: " + RegistryClient.manifestMediaTypes.joined(separator: ", ")
        var (request, response) = try send(method, url, headerLines: [accept], authorization: authorization)
        if response.statusCode == 401 {
            let answered = try authenticate(request, response)
            (request, response) = try send(method, url, headerLines: [accept], authorization: authorization)
            if response.statusCode == 401 {
                throw error(request, .authentication, answered.refusal)
            }
        }
        switch response.statusCode {
        case 200:
            return (request, response)
        case 404:
            var code = Self.errorCode(in: response)
            if code == nil && method == "HEAD",
                let (_, answer) = try? send("GET", url, headerLines: [accept], authorization: authorization)
            {
                code = Self.errorCode(in: answer)
            }
            let host = reference.apiHost
            if code?.code == "NAME_UNKNOWN" {
                throw error(request, .unknownManifest, "repository \(reference.path) is not known to \(host) (404 NAME_UNKNOWN)")
            }
            let what = reference.digest.map { "manifest \($0)" } ?? "tag \(reference.effectiveTag) of \(reference.path)"
            throw error(request, .unknownManifest, "\(what) is not known to \(host) (404 \(code?.code ?? "MANIFEST_UNKNOWN"))")
        case 403:
            throw error(
                request, .authentication,
                "access denied (403\(Self.errorCode(in: response).map { " " + $0.code } ?? "")); check --registry-auth")
        case 502, 503, 504:
            throw error(
                request, .unreachable,
                "the registry (or a proxy on the way) answered HTTP \(response.statusCode): it is not available now")
        case 429:
            throw error(request, .unexpectedAnswer, "too many requests (429): the registry limits pulls; try again later")
        default:
            let detail = Self.errorCode(in: response).map { " \($0.code): \($0.message)" } ?? ""
            throw error(request, .unexpectedAnswer, "the registry answered HTTP \(response.statusCode)\(detail)")
        }
    }

    /// What was done to answer a challenge, and what to say if it was refused.
    struct Answer {
        var refusal: String
    }

    /// Answers a `401`'s challenge: gets a bearer token, or takes Basic credentials.
    mutating func authenticate(_ request: RegistryRequest, _ response: RegistryResponse) throws(RegistryError) -> Answer {
        let values = response.headers(named: "WWW-Authenticate")
        let challenges = values.flatMap(AuthenticationChallenge.parse)
        let host = reference.apiHost
        if let bearer = challenges.first(where: { $0.scheme == "bearer" }) {
            authorization = "Bearer " + (try token(for: bearer, request: request))
            let hint = client.credentials == nil ? "; if it is private, give --registry-auth USER:PASS" : ""
            return Answer(refusal: "\(host) refused the pull token for \(reference.path): the repository may not exist\(hint)")
        }
        if challenges.contains(where: { $0.scheme == "basic" }) {
            guard let credentials = client.credentials else {
                throw error(
                    request, .authentication,
                    "\(host) asks for a user name and password (HTTP Basic authentication); give them with "
                        + "--registry-auth USER:PASS or STAGEBUILD_REGISTRY_AUTH")
            }
            authorization = credentials.basicAuthorization
            return Answer(refusal: "\(host) refused the credentials of user \(credentials.user) (401 after Basic authentication)")
        }
        let shown = values.isEmpty ? "no WWW-Authenticate header" : "WWW-Authenticate: " + values.joined(separator: ", ")
        throw error(request, .authentication, "\(host) answered 401 with no challenge stagebuild can answer (\(shown))")
    }

    /// Asks a token service for a pull token (Docker's "Token Authentication Specification").
    mutating func token(for challenge: AuthenticationChallenge, request: RegistryRequest) throws(RegistryError) -> String {
        guard let realm = challenge.parameters["realm"], let realmURL = URL(string: realm), let scheme = realmURL.scheme,
            ["http", "https"].contains(scheme.lowercased())
        else {
            throw error(request, .authentication, "the Bearer challenge has no usable realm (token service URL)")
        }
        var query: [String] = []
        if let service = challenge.parameters["service"] {
            query.append("service=" + PercentEncoding.encoded(service, keeping: PercentEncoding.isUnreserved))
        }
        query.append(
            "scope="
                + PercentEncoding.encoded(
                    challenge.parameters["scope"] ?? "repository:\(reference.path):pull", keeping: PercentEncoding.isUnreserved))
        let url = realm + (realm.contains("?") ? "&" : "?") + query.joined(separator: "&")
        // Credentials go to a token service only over HTTPS, or to a registry named insecure.
        let mayUseCredentials =
            scheme.lowercased() == "https" || client.insecureRegistries.contains(Self.authority(of: realmURL).lowercased())
        let basic = mayUseCredentials ? client.credentials?.basicAuthorization : nil
        let (tokenRequest, response) = try send(
            "GET", url, headerLines: ["Accept: application/json"], authorization: basic)
        guard response.statusCode == 200 else {
            let kind: RegistryError.Kind =
                response.statusCode == 401 || response.statusCode == 403 ? .authentication : .unexpectedAnswer
            let detail = basic == nil ? "" : " (the credentials of user \(client.credentials?.user ?? "") were sent)"
            throw error(tokenRequest, kind, "the token service answered HTTP \(response.statusCode)\(detail)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let token = (object["token"] as? String) ?? (object["access_token"] as? String), !token.isEmpty
        else {
            throw error(tokenRequest, .authentication, "the token service's answer holds no token")
        }
        return token
    }

    /// Sends a request and follows redirects; a call that gets no answer is `.unreachable`.
    func send(
        _ method: String, _ url: String, headerLines: [String], authorization: String?
    ) throws(RegistryError) -> (RegistryRequest, RegistryResponse) {
        var current = url
        var authorization = authorization
        for _ in 0...Self.maxRedirects {
            let request = RegistryRequest(
                method: method, url: current, headerLines: headerLines + (authorization.map { ["Authorization: \($0)"] } ?? []))
            let response: RegistryResponse
            do {
                response = try client.transport.send(request)
            } catch {
                let host = URL(string: current).map(Self.authority(of:)) ?? current
                let what =
                    error.kind == .timedOut ? "no answer in time from" : error.kind == .tls ? "TLS failed with" : "cannot reach"
                // An https request answered in plain HTTP fails as "wrong version number": the
                // registry speaks HTTP, which needs the user's explicit consent.
                let hint =
                    error.kind == .tls && current.hasPrefix("https:") && error.message.contains("wrong version number")
                    ? "; if \(host) speaks plain HTTP, add --insecure-registry \(host)" : ""
                throw self.error(request, .unreachable, "\(what) \(host): \(error.message)\(hint)")
            }
            guard [301, 302, 303, 307, 308].contains(response.statusCode), let location = response.header("Location") else {
                return (request, response)
            }
            guard let base = URL(string: current), let next = URL(string: location, relativeTo: base)?.absoluteURL,
                let scheme = next.scheme?.lowercased(), ["http", "https"].contains(scheme)
            else {
                throw error(request, .unexpectedAnswer, "redirect to an unusable location: \(location)")
            }
            if base.scheme?.lowercased() == "https" && scheme == "http" {
                throw error(request, .unexpectedAnswer, "redirect from HTTPS to plain HTTP refused: \(next.absoluteString)")
            }
            if Self.authority(of: next).lowercased() != Self.authority(of: base).lowercased() { authorization = nil }
            current = next.absoluteString
        }
        throw error(RegistryRequest(method: method, url: url), .unexpectedAnswer, "more than \(Self.maxRedirects) redirects")
    }

    /// `host[:port]` of a URL.
    static func authority(of url: URL) -> String {
        let host = url.host ?? ""
        return HostPort.bracketed(host) + (url.port.map { ":\($0)" } ?? "")
    }

    /// The first error of a distribution-spec error body: `{"errors":[{"code":…,"message":…}]}`.
    static func errorCode(in response: RegistryResponse) -> (code: String, message: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let errors = object["errors"] as? [[String: Any]], let first = errors.first, let code = first["code"] as? String
        else { return nil }
        return (code, first["message"] as? String ?? "")
    }
}

import Foundation
import JSONReader
import Serialization

/// The requests of one resolution: the authorization won so far, redirects, and errors that
/// name the image and the request.
struct RegistrySession {
    let client: RegistryClient
    let reference: ImageReference
    /// The `Authorization` value to send to the registry host, once a challenge was answered.
    var authorization: String?
    /// The registry's credentials once looked up (`.some(nil)`: it has none), and where they came from.
    var credentials: (credentials: RegistryCredentials, origin: String)??
    static let maxRedirects = 5

    init(client: RegistryClient, reference: ImageReference) {
        self.client = client
        self.reference = reference
    }

    /// An error about this image.
    func error(_ request: RegistryRequest, _ kind: RegistryError.Kind, _ message: String) -> RegistryError {
        RegistryError(image: reference.written, hop: request.description, kind: kind, message: message)
    }

    /// The media type of a manifest answer, whose body must read as the manifest or index its
    /// type names (``RegistryResponse/manifestMediaType()``): anything else (an HTML page, a
    /// text/plain echo, a captive portal, a truncated or altered body) is no image, and pinning
    /// its hash would pin nonsense.
    ///
    /// - Throws: `RegistryError` of kind `unexpectedAnswer` naming what was served.
    /// The manifest a digest names, fetched by it: its body must hash to the digest and read as
    /// the manifest or index its media type names.
    ///
    /// - Parameters:
    ///   - url: `…/v2/NAME/manifests/`.
    ///   - wanted: The digest.
    /// - Returns: The image as resolved.
    /// - Throws: `RegistryError` for a digest stagebuild cannot check, a body of another hash,
    ///   or a body that is no manifest.
    mutating func manifest(at url: String, digest wanted: Digest) throws(RegistryError) -> ResolvedImage {
        let (request, response) = try fetch("GET", url + wanted.description)
        guard let matches = wanted.isDigest(of: response.body) else {
            throw error(request, .unexpectedAnswer, "stagebuild verifies sha256 digests only, not \(wanted.algorithm)")
        }
        guard matches else {
            throw error(
                request, .digestMismatch,
                "digest mismatch: the manifest served for \(wanted) hashes to \(Digest.sha256(of: response.body)); "
                    + "the registry or something between it and stagebuild altered it")
        }
        return ResolvedImage(reference: reference, digest: wanted, mediaType: try manifestMediaType(request, response))
    }

    func manifestMediaType(_ request: RegistryRequest, _ response: RegistryResponse) throws(RegistryError) -> String {
        do {
            return try response.manifestMediaType()
        } catch {
            throw self.error(
                request, .unexpectedAnswer,
                "\(error.description): no image manifest (OCI image index or manifest, Docker manifest list or v2 "
                    + "manifest); is \(reference.domain) a container registry?")
        }
    }

    /// The registry's credentials, looked up once, when a challenge first asks.
    mutating func registryCredentials(
        _ request: RegistryRequest
    ) throws(RegistryError) -> (credentials: RegistryCredentials, origin: String)? {
        if let credentials { return credentials }
        do {
            let found = try client.credentials.credentials(for: reference)
            credentials = .some(found)
            return found
        } catch {
            throw self.error(request, .authentication, error.reason)
        }
    }

    /// Whether a request went to the registry's own API host, the only host its credentials
    /// answer a Basic challenge for.
    func isRegistryHost(_ request: RegistryRequest) -> Bool {
        guard let url = URL(string: request.url) else { return false }
        return Self.authority(of: url).lowercased() == reference.apiHost.lowercased()
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
            var code = response.distributionError
            if code == nil && method == "HEAD",
                let (_, answer) = try? send("GET", url, headerLines: [accept], authorization: authorization)
            {
                code = answer.distributionError
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
                "access denied (403\(response.distributionError.map { " " + $0.code } ?? "")); check the credentials for "
                    + "\(reference.domain) (--registry-auth \(reference.domain)=USER:PASS, or an auth file)")
        case 502, 503, 504:
            throw error(
                request, .unreachable,
                "the registry (or a proxy on the way) answered HTTP \(response.statusCode): it is not available now")
        case 429:
            throw error(request, .unexpectedAnswer, "too many requests (429): the registry limits pulls; try again later")
        default:
            let detail = response.distributionError.map { " \($0.code): \($0.message)" } ?? ""
            throw error(request, .unexpectedAnswer, "the registry answered HTTP \(response.statusCode)\(detail)")
        }
    }

    /// What was done to answer a challenge, and what to say if it was refused.
    struct Answer {
        var refusal: String
    }

    /// Answers a `401`'s challenge: gets a bearer token, or takes Basic credentials. Only a
    /// challenge from the registry's own API host is answered with its credentials.
    mutating func authenticate(_ request: RegistryRequest, _ response: RegistryResponse) throws(RegistryError) -> Answer {
        let values = response.headers(named: "WWW-Authenticate")
        let challenges = values.flatMap(AuthenticationChallenge.parse)
        let host = reference.apiHost
        let ownHost = isRegistryHost(request)
        let auth = "--registry-auth \(reference.domain)=USER:PASS"
        if let bearer = challenges.first(where: { $0.scheme == "bearer" }) {
            let found = ownHost ? try registryCredentials(request) : nil
            authorization = "Bearer " + (try token(for: bearer, request: request, credentials: found))
            let hint = found == nil ? "; if it is private, give \(auth) or log in with docker or podman" : ""
            return Answer(refusal: "\(host) refused the pull token for \(reference.path): the repository may not exist\(hint)")
        }
        if challenges.contains(where: { $0.scheme == "basic" }) {
            let asking = URL(string: request.url).map(Self.authority(of:)) ?? request.url
            guard ownHost else {
                throw error(
                    request, .authentication,
                    "\(asking) asks for a user name and password after a redirect from \(host); stagebuild sends the "
                        + "credentials of \(reference.domain) to \(host) only")
            }
            guard let found = try registryCredentials(request) else {
                throw error(
                    request, .authentication,
                    "\(host) asks for a user name and password (HTTP Basic authentication); give them with \(auth), "
                        + "STAGEBUILD_REGISTRY_AUTH, --registry-auth-file, or docker or podman login")
            }
            authorization = found.credentials.basicAuthorization
            return Answer(
                refusal: "\(host) refused the credentials of user \(found.credentials.user) from \(found.origin) "
                    + "(401 after Basic authentication)")
        }
        let shown = values.isEmpty ? "no WWW-Authenticate header" : "WWW-Authenticate: " + values.joined(separator: ", ")
        throw error(request, .authentication, "\(host) answered 401 with no challenge stagebuild can answer (\(shown))")
    }

    /// Asks a token service for a pull token (Docker's "Token Authentication Specification").
    ///
    /// - Parameters:
    ///   - challenge: The registry's Bearer challenge.
    ///   - request: The request it answered.
    ///   - credentials: The registry's own credentials, or `nil` to ask anonymously. They go
    ///     to the token service over HTTPS only, or over HTTP to a registry named insecure.
    mutating func token(
        for challenge: AuthenticationChallenge, request: RegistryRequest,
        credentials: (credentials: RegistryCredentials, origin: String)?
    ) throws(RegistryError) -> String {
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
        let mayUseCredentials =
            scheme.lowercased() == "https" || client.insecureRegistries.contains(Self.authority(of: realmURL).lowercased())
        let sent = mayUseCredentials ? credentials : nil
        // The token service's own redirects keep no Authorization once they leave its host (send).
        let (tokenRequest, response) = try send(
            "GET", url, headerLines: ["Accept: application/json"], authorization: sent?.credentials.basicAuthorization)
        guard response.statusCode == 200 else {
            let kind: RegistryError.Kind =
                response.statusCode == 401 || response.statusCode == 403 ? .authentication : .unexpectedAnswer
            let detail = sent.map { " (the credentials of user \($0.credentials.user) from \($0.origin) were sent)" } ?? ""
            throw error(tokenRequest, kind, "the token service answered HTTP \(response.statusCode)\(detail)")
        }
        let answer = try? JSONDocument.parse(response.body)
        guard let token = answer?[member: "token"]?.stringValue ?? answer?[member: "access_token"]?.stringValue,
            !token.isEmpty
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
}

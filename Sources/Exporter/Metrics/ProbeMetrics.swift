import Foundation
import ProbeKit
import Serialization

/// The metrics of one probe, as `GET /probe` answers them: blackbox_exporter's names and
/// meanings where it has them (its `prober/http.go` and `prober/utils.go`, v0.23), and what it
/// has not: which hop failed and why, the proxy's CONNECT answer, which proxy was used, what TLS
/// verified, and each Apple client's verdict.
///
/// Every label value comes from the report, which has already removed secrets (a proxy's
/// password is `***`), so no secret reaches a label.
public enum ProbeMetrics {
    /// The families, in a fixed order.
    ///
    /// - Parameters:
    ///   - result: The probe's report.
    ///   - durationSeconds: The whole probe, seconds.
    ///   - followsRedirects: Whether the module follows redirects (`follow_redirects`).
    /// - Returns: The families with samples for what the probe saw.
    public static func families(
        of result: ProbeResult, durationSeconds: Double, followsRedirects: Bool = true
    ) -> [MetricFamily] {
        var families: [MetricFamily] = []
        func gauge(_ name: String, _ help: String, _ value: Double?) {
            if let value { families.append(.gauge(name, help: help, value)) }
        }
        func flag(_ value: Bool) -> Double { value ? 1 : 0 }
        let succeeded = result.outcome == .succeeded
        let timings = result.timings
        // The last response decides, as blackbox's `resp.TLS` does.
        let isHTTPS = result.hops.last?.isHTTPS ?? result.target.lowercased().hasPrefix("https://")

        gauge("probe_success", "Displays whether or not the probe was a success", flag(succeeded))
        gauge("probe_duration_seconds", "Returns how long the probe took to complete in seconds", durationSeconds)
        // blackbox registers the lookup time and every phase for each probe: 0 for a probe that
        // never connected (an OAuth 2.0 token not obtained).
        gauge(
            "probe_dns_lookup_time_seconds", "Returns the time taken for probe dns lookup in seconds",
            (timings?.dns ?? 0) / 1000)
        // Each hop's own phases, summed over the hops as blackbox sums them over redirects.
        let hopTimings = result.hops.isEmpty ? timings.map { [$0] } ?? [] : result.hops.compactMap(\.timings)
        let perHop = (hopTimings.isEmpty ? [ProbeTimings(total: 0)] : hopTimings).map(phases)
        let summed = perHop[0].indices.map { index in
            (phase: perHop[0][index].phase, seconds: perHop.reduce(0) { $0 + $1[index].seconds })
        }
        families.append(
            MetricFamily(
                "probe_http_duration_seconds", help: "Duration of http request by phase, summed over all redirects",
                samples: summed.map { .init(labels: [("phase", $0.phase)], value: $0.seconds) }))
        gauge("probe_http_status_code", "Response HTTP status code", Double(result.httpStatus ?? 0))
        // blackbox registers these for every probe: 0 when no response came.
        // Go's resp.ContentLength: the Content-Length field, -1 without one (a chunked body).
        gauge(
            "probe_http_content_length", "Length of http content response",
            result.httpStatus == nil ? 0 : Double(result.contentLength ?? -1))
        // libcurl hands over the body decoded (compression): its length is the uncompressed one.
        // A redirect not followed (the module's follow_redirects: false, or one past the tenth,
        // which Go's client declines as blackbox's CheckRedirect tells it) leaves its body
        // unread in blackbox: 0.
        let declinedRedirect =
            (!followsRedirects && result.redirects.isEmpty && [301, 302, 303, 307, 308].contains(result.httpStatus ?? 0))
            || result.outcome.failureReason?.code == .tooManyRedirects
        gauge(
            "probe_http_uncompressed_body_length", "Length of uncompressed response body",
            result.httpStatus == nil || declinedRedirect ? 0 : Double(result.bodyByteCount ?? 0))
        gauge(
            "probe_failed_due_to_regex", "Indicates if probe failed due to regex",
            flag(result.outcome.failureReason?.isPatternMismatch == true))
        // The address connected to (the proxy's through a proxy, where blackbox resolves the
        // target's name itself): its family, and blackbox's FNV-1a hash of its bytes.
        // Without a connection, a target written as an address is that address (blackbox's
        // resolution of it cannot fail).
        // The first request's address, as blackbox resolves the target once before redirects;
        // none known, both 0, as blackbox registers them.
        let connected = (result.hops.first?.remoteAddress ?? result.remoteAddress).flatMap(Self.ipAddressBytes)
        let address = connected ?? Self.ipAddressBytes(Self.host(of: result.target))
        gauge(
            "probe_ip_protocol", "Specifies whether probe ip protocol is IP4 or IP6",
            address.map { $0.count == 4 ? 4 : 6 } ?? 0)
        gauge(
            "probe_ip_addr_hash", "Specifies the hash of IP address. It's useful to detect if the IP address changes.",
            address.map { Double(Self.fnv1a32($0)) } ?? 0)
        // A redirect the module does not follow still counts, as blackbox counts it: Go's client
        // asks CheckRedirect (which counts) before it declines (a 3xx of Go's redirect codes).
        gauge("probe_http_redirects", "The number of redirects", Double(result.redirects.count + (declinedRedirect ? 1 : 0)))
        // As blackbox: the final response came over TLS (none came, none did).
        gauge(
            "probe_http_ssl", "Indicates if SSL was used for the final redirect",
            flag(isHTTPS && result.httpStatus != nil && result.tls?.version != nil))
        gauge(
            "probe_http_version", "Returns the version of HTTP of the probe response",
            result.httpVersion.flatMap(Double.init) ?? 0)
        if let tls = result.tls, let expiry = tls.earliestExpiry {
            gauge("probe_ssl_earliest_cert_expiry", "Returns last SSL chain expiry in unixtime", Double(expiry))
        }
        // blackbox's last-chain series describe the connection a response came over (Go's
        // resp.TLS): none after a failed handshake, where the gauges above still say why.
        if let tls = result.tls, let expiry = tls.earliestExpiry, result.httpStatus != nil {
            // blackbox: the verified chain's earliest expiry; Go's zero time when none was
            // verified (insecure_skip_verify), as certificate dashboards read it.
            gauge(
                "probe_ssl_last_chain_expiry_timestamp_seconds", "Returns last SSL chain expiry in timestamp",
                tls.chainVerified == true ? Double(expiry) : -62_135_596_800)
            let dnsNames = tls.subjectAlternativeNames.filter { $0.hasPrefix("DNS:") }.map { String($0.dropFirst(4)) }
            families.append(
                MetricFamily(
                    "probe_ssl_last_chain_info", help: "Contains SSL leaf certificate information",
                    samples: [
                        .init(
                            labels: [
                                ("fingerprint_sha256", tls.leafFingerprintSHA256 ?? ""),
                                ("issuer", Self.goDistinguishedName(tls.issuer ?? "")),
                                ("subject", Self.goDistinguishedName(tls.subject ?? "")),
                                ("subjectalternative", dnsNames.joined(separator: ",")),
                            ], value: 1)
                    ]))
        }
        if let version = result.tls?.version {
            families.append(
                MetricFamily(
                    "probe_tls_version_info", help: "Returns the TLS version used or NaN when unknown",
                    samples: [.init(labels: [("version", blackboxTLSVersion(version))], value: 1)]))
        }
        if let tls = result.tls {
            gauge(
                "probe_ssl_chain_verified", "Whether the target's certificate chain was verified (1), accepted unverified (0)",
                tls.chainVerified.map(flag))
            gauge(
                "probe_ssl_name_verified", "Whether the target's certificate was checked to name the host (1) or not (0)",
                tls.nameVerified.map(flag))
        }
        if let connect = result.connectStatus {
            gauge("probe_proxy_connect_status_code", "The proxy's status code in answer to CONNECT", Double(connect))
        }
        if case .proxy(let server, let source)? = result.route {
            // A PAC entry is named by the module's key; the entry itself is the proxy.
            let setting = if case .pac = source { "pac_url" } else { "\(source)" }
            families.append(
                MetricFamily(
                    "probe_proxy_used", help: "The proxy the probe went through, and the setting that chose it",
                    samples: [.init(labels: [("proxy", server.description), ("source", setting)], value: 1)]))
        }
        if let pac = result.pac {
            gauge(
                "probe_pac_entries_failed_over",
                "How many entries of the PAC script's answer the probe left before the one that ended it",
                Double(pac.entries.count { $0.state == .failedOver }))
        }
        if case .failed(let reason) = result.outcome {
            families.append(
                MetricFamily(
                    "probe_failure_info", help: "Why the probe failed: the hop, the reason and the URLError an Apple client gets",
                    samples: [
                        .init(
                            labels: [
                                ("hop", reason.hop.rawValue), ("reason", reason.code.rawValue),
                                ("url_error", reason.appleError.map { "\($0.code)" } ?? ""),
                            ], value: 1)
                    ]))
        }
        if !result.appleClients.isEmpty {
            families.append(
                MetricFamily(
                    "probe_apple_client_success", help: "Whether an app on this Apple client stack would succeed (1) or not (0)",
                    samples: result.appleClients.map {
                        .init(labels: [("client", $0.client.rawValue)], value: flag($0.succeeded))
                    }
                ))
        }
        return families
    }

    /// blackbox's phases from curl's cumulative times: resolve, connect, tls, processing (to the
    /// first byte), transfer (to the end), each a duration in seconds; a phase not reached is 0.
    static func phases(_ timings: ProbeTimings) -> [(phase: String, seconds: Double)] {
        let resolve = timings.dns ?? 0
        let connect = timings.connect ?? resolve
        let tls = timings.tls ?? connect
        let firstByte = timings.firstByte ?? tls
        func span(_ from: Double, _ to: Double?) -> Double { max((to ?? from) - from, 0) / 1000 }
        return [
            ("resolve", resolve / 1000),
            ("connect", span(resolve, timings.connect)),
            ("tls", span(connect, timings.tls)),
            ("processing", span(tls, timings.firstByte)),
            ("transfer", timings.firstByte == nil ? 0 : span(firstByte, timings.total)),
        ]
    }

    /// A distinguished name as OpenSSL's one-line form prints it (`C = US, O = Example, CN = x`,
    /// in the certificate's order) written as Go's `pkix.Name.String()` does for blackbox's
    /// labels: the last attribute first, `TYPE=value` joined by `,` (RFC 4514), Go's type names.
    static func goDistinguishedName(_ openSSL: String) -> String {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in openSSL {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == ",", !current.isEmpty {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        let goNames = ["serialNumber": "SERIALNUMBER", "street": "STREET", "postalCode": "POSTALCODE"]
        return parts.reversed().map { part in
            let trimmed = part.drop { $0 == " " }
            guard let equals = trimmed.range(of: " = ") ?? trimmed.range(of: "=") else { return String(trimmed) }
            let type = String(trimmed[..<equals.lowerBound])
            return (goNames[type] ?? type) + "=" + trimmed[equals.upperBound...]
        }.joined(separator: ",")
    }

    /// The bytes of the address in `ip:port` or `[ipv6]:port`: 4 for IPv4, 16 for IPv6 (an
    /// IPv4-mapped IPv6 address as its 4, as Go's `To4` does); `nil` for no address.
    static func ipAddressBytes(_ address: String) -> [UInt8]? {
        guard let host = HostPort.split(address[...]).map({ String($0.host) }) else { return nil }
        if let v4 = IPAddress.v4(parsing: host) { return v4.bytes }
        guard let bytes = IPAddress.v6(parsing: host)?.bytes else { return nil }
        return bytes[..<12].elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]) ? Array(bytes[12...]) : bytes
    }

    /// The host of a target URL as written (brackets kept for IPv6), or `""`.
    static func host(of target: String) -> String { URLComponents(string: target)?.host ?? "" }

    /// The 32-bit FNV-1a hash (Go's `hash/fnv` `New32a`).
    static func fnv1a32(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(0x811c_9dc5)) { ($0 ^ UInt32($1)) &* 0x0100_0193 }
    }

    /// OpenSSL's `"TLSv1.3"` in blackbox's words, `"TLS 1.3"`.
    static func blackboxTLSVersion(_ version: String) -> String {
        version.hasPrefix("TLSv") ? "TLS " + version.dropFirst(4) : version
    }
}

import Foundation
import JSONReader
import StageKit

/// What lock reads from a registry's answers and from image references: `WWW-Authenticate`
/// challenges (`AuthenticationChallenge.parse`), digests (`Digest(parsing:)`), references
/// (`ImageReference(parsing:)`), and a manifest answer's media type and error code
/// (`RegistryResponse.manifestMediaType()`, `distributionError`, over the strict JSON reader).
/// An input is five parts separated by NUL bytes: challenge, digest, reference, `Content-Type`
/// and body. For every input:
/// - the challenges written back (RFC 9110 section 11.6.1: `scheme param="value", …`, token68
///   as is) read as the same challenges;
/// - an accepted digest and an accepted reference read back from their printed forms as
///   themselves;
/// - an accepted manifest's media type is a manifest type and the `Content-Type` (lower case,
///   parameters dropped) or the body's own `mediaType`, its body an object with
///   `schemaVersion` 2; an error code is the body's first error's;
/// - wherever the strict JSON reader accepts a body, Foundation's reader reads the same
///   `mediaType` and first error code from it (the strict reader refuses, never misreads).
enum RegistryFuzz {
    static let target = FuzzTarget(name: "registry", check: check, grow: grow)

    static func check(_ bytes: [UInt8]) {
        guard let parts = textParts(of: bytes, count: 5) else { return }
        let challenges = AuthenticationChallenge.parse(parts[0])
        if AuthenticationChallenge.parse(written(challenges)) != challenges {
            invariantFailed("registry", "the challenges written back read differently")
        }
        if let digest = try? Digest(parsing: parts[1]), (try? Digest(parsing: digest.description)) != digest {
            invariantFailed("registry", "a digest does not read back from its printed form")
        }
        if let reference = try? ImageReference(parsing: parts[2]) {
            guard let again = try? ImageReference(parsing: reference.canonical),
                again.canonical == reference.canonical, again.domain == reference.domain, again.path == reference.path,
                again.tag == reference.tag || reference.tag == nil, again.digest == reference.digest
            else {
                invariantFailed("registry", "a reference does not read back from its canonical form")
            }
        }
        checkManifestAnswer(contentType: parts[3], body: parts[4])
    }

    private static func checkManifestAnswer(contentType: String, body: String) {
        let response = RegistryResponse(
            statusCode: 200, headers: contentType.isEmpty ? [] : [.init(name: "Content-Type", value: contentType)],
            body: Array(body.utf8))
        let strict = try? JSONDocument.parse(Array(body.utf8))
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        if let mediaType = try? response.manifestMediaType() {
            guard RegistryClient.manifestMediaTypes.contains(mediaType),
                mediaType == response.contentType || mediaType == strict?[member: "mediaType"]?.stringValue,
                strict?[member: "schemaVersion"]?.integerValue == 2
            else {
                invariantFailed("registry", "an accepted manifest's media type or schemaVersion is not the answer's")
            }
        }
        if let strict, let object, strict[member: "mediaType"]?.stringValue != object["mediaType"] as? String {
            invariantFailed("registry", "the strict reader and Foundation read another mediaType")
        }
        if strict != nil, response.distributionError?.code != (object?["errors"] as? [[String: Any]])?.first?["code"] as? String {
            invariantFailed("registry", "the error code is not the body's first error's")
        }
    }

    /// Challenges as a `WWW-Authenticate` value: parameters in name order, values quoted with
    /// `\` before `"` and `\`.
    static func written(_ challenges: [AuthenticationChallenge]) -> String {
        challenges.map { challenge in
            var parts: [String] = []
            if let token68 = challenge.parameters[""] { parts.append(token68) }
            for (name, value) in challenge.parameters.sorted(by: { $0.key < $1.key }) where !name.isEmpty {
                // Scalar by scalar: a `\` followed by a combining mark is one Character.
                var quoted = String.UnicodeScalarView()
                for scalar in value.unicodeScalars {
                    if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
                    quoted.append(scalar)
                }
                parts.append("\(name)=\"\(String(quoted))\"")
            }
            return parts.isEmpty ? challenge.scheme : challenge.scheme + " " + parts.joined(separator: ", ")
        }.joined(separator: ", ")
    }

    /// The challenge header repeated, comma-separated; the digest and reference kept.
    static func grow(_ seed: [UInt8], _ factor: Int) -> [UInt8] {
        let separator = seed.firstIndex(of: 0) ?? seed.endIndex
        let header = Array(seed[..<separator])
        return Array(Array(repeating: header, count: factor).joined(separator: Array(", ".utf8))) + Array(seed[separator...])
    }
}

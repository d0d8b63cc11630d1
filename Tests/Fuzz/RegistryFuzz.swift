import Foundation

// The readers of a manifest answer are internal to StageKit (the fuzz build is a debug build).
@testable import StageKit

/// What lock reads from a registry's answers and from image references: `WWW-Authenticate`
/// challenges (`AuthenticationChallenge.parse`), digests (`Digest(parsing:)`), references
/// (`ImageReference(parsing:)`), and a manifest answer's media type and error code (the layer
/// above Foundation's JSON: `RegistryClient.mediaType(of:)`, `RegistrySession.errorCode(in:)`).
/// An input is five parts separated by NUL bytes: challenge, digest, reference, `Content-Type`
/// and body. For every input:
/// - the challenges written back (RFC 9110 section 11.6.1: `scheme param="value", …`, token68
///   as is) read as the same challenges;
/// - an accepted digest and an accepted reference read back from their printed forms as
///   themselves;
/// - the media type is the `Content-Type` (lower case, parameters dropped), the body's own
///   `mediaType` or empty, and an error code comes from the body's first error.
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
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let mediaType = RegistryClient.mediaType(of: response)
        let header = RegistryClient.contentType(of: response)
        if !(mediaType == header || mediaType == object?["mediaType"] as? String || mediaType.isEmpty) {
            invariantFailed("registry", "the media type is neither the Content-Type nor the body's")
        }
        if let (code, _) = RegistrySession.errorCode(in: response),
            ((object?["errors"] as? [[String: Any]])?.first?["code"] as? String) != code
        {
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

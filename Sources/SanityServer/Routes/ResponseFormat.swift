import Serialization

/// How a route renders its document: JSON unless the client prefers `text/plain`.
enum ResponseFormat: Sendable, Equatable {
    case json
    case text

    /// The format the `Accept` fields prefer (RFC 9110 section 12.5.1): text only when
    /// `text/plain` gets a strictly higher quality than `application/json`, so `*/*` and a
    /// missing `Accept` give JSON.
    ///
    /// - Parameters:
    ///   - accept: The values of every `Accept` field, in arrival order.
    /// - Returns: The preferred format.
    static func preferred(byAccept accept: [String]) -> ResponseFormat {
        let ranges = accept.flatMap(ASCII.listElements).map(MediaRange.init)
        guard !ranges.isEmpty else { return .json }
        let text = quality(of: "text", "plain", in: ranges)
        let json = quality(of: "application", "json", in: ranges)
        return text > json ? .text : .json
    }

    /// The quality of the most specific range that matches a media type; `0` when none does.
    private static func quality(of type: String, _ subtype: String, in ranges: [MediaRange]) -> Double {
        var best: (specificity: Int, quality: Double) = (-1, 0)
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if specificity > best.specificity { best = (specificity, range.quality) }
        }
        return best.quality
    }

    /// One element of `Accept`: `type/subtype;q=weight` (RFC 9110 sections 12.4.2 and 12.5.1).
    private struct MediaRange {
        var type: String
        var subtype: String
        var quality: Double

        init(_ element: String) {
            let parameters = element.split(separator: ";").map { $0.trimmingHTTPWhitespace().lowercased() }
            let media = parameters.first?.split(separator: "/", maxSplits: 1) ?? []
            type = media.first.map(String.init) ?? ""
            subtype = media.count > 1 ? String(media[1]) : ""
            quality = 1
            for parameter in parameters.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)).map { min(max($0, 0), 1) } ?? 0
            }
        }
    }
}

/// One stack's verdict on one call's certificate.
public struct AppleClientVerdict: Sendable, Equatable {
    /// The stack.
    public var client: AppleClient
    /// Whether the app would get the response.
    public var succeeded: Bool
    /// `NSURLErrorDomain`, or `Alamofire.AFError` for Alamofire's own error; `nil` on success.
    public var errorDomain: String?
    /// The `URLError` code the app sees (for Alamofire, the one its `sessionTaskFailed` wraps);
    /// `nil` on success and for Alamofire's trust errors, which carry a Security error instead.
    public var errorCode: Int?
    /// The case of the stack's own error, e.g. `serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))`.
    public var errorCase: String?
    /// The Security framework's error under the stack's, e.g.
    /// `"NSOSStatusErrorDomain -67843 errSecNotTrusted"` (Alamofire's `.trustEvaluationFailed`).
    public var underlyingError: String?
    /// The rule that decided, in the stack's own terms.
    public var rule: String
    /// What would turn a failure into success on a real device without changing the app, e.g.
    /// "succeeds once the device trusts CN = mitmproxy (a profile installed, full trust turned on)".
    public var condition: String?
    /// Changes in the stack's own terms that would make the call pass, smallest first; each is
    /// checked: the verdict under it succeeds.
    public var fixes: [VerdictFix]
    /// What the verdict or a fix gives up, and where the probe's switch has no exact equivalent.
    public var warnings: [String]
    /// Where versions of the stack decide differently, e.g. AFNetworking 3.0.0–3.0.4.
    public var versions: [String]

    /// A verdict.
    ///
    /// - Parameters: one per property.
    public init(
        client: AppleClient, succeeded: Bool, errorDomain: String? = nil, errorCode: Int? = nil, errorCase: String? = nil,
        underlyingError: String? = nil, rule: String, condition: String? = nil, fixes: [VerdictFix] = [],
        warnings: [String] = [], versions: [String] = []
    ) {
        self.client = client
        self.succeeded = succeeded
        self.errorDomain = errorDomain
        self.errorCode = errorCode
        self.errorCase = errorCase
        self.underlyingError = underlyingError
        self.rule = rule
        self.condition = condition
        self.fixes = fixes
        self.warnings = warnings
        self.versions = versions
    }
}

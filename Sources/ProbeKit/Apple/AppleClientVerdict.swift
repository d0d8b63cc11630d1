/// One stack's verdict on one call's certificate.
public struct AppleClientVerdict: Sendable, Equatable {
    /// The stack.
    public var client: AppleClient
    /// Whether the app would get the response.
    public var succeeded: Bool
    /// `NSURLErrorDomain`, or `Alamofire.AFError` for Alamofire's own error; `nil` on success.
    public var errorDomain: String?
    /// The `URLError` code the app sees, or underneath Alamofire's error (-999: it cancels
    /// the challenge); `nil` on success.
    public var errorCode: Int?
    /// The case of the stack's own error, e.g. `serverTrustEvaluationFailed(reason: .trustEvaluationFailed(error:))`.
    public var errorCase: String?
    /// The rule that decided, in the stack's own terms.
    public var rule: String
    /// Changes in the stack's own terms that would make the call pass, smallest first.
    public var fixes: [String]
    /// What the verdict or a fix gives up, and where the probe's switch has no exact equivalent.
    public var warnings: [String]
}

import Curl

/// Runs a transfer with `options` and returns its result and wall time.
func transfer(
    _ options: [EasyOption], maxBodyBytes: Int = 1_048_576, cancellation: TransferCancellation? = nil
) throws -> (result: Result<CurlResponse, CurlError>, elapsed: Duration) {
    let handle = try EasyHandle()
    try handle.set(options)
    let clock = ContinuousClock()
    let start = clock.now
    let result = Result { () throws(CurlError) -> CurlResponse in
        try handle.perform(maxBodyBytes: maxBodyBytes, cancellation: cancellation)
    }
    return (result, clock.now - start)
}

extension Result {
    /// The failure, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

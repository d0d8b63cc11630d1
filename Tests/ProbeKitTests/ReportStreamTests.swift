import ProbeKit
import Testing

/// A run cut short reports its calls that never started in bulk, rendered on all cores: the
/// bytes and counts must be those of taking them one by one.
@Suite struct ReportStreamTests {
    static func notStarted(_ index: Int) -> ProbeResult {
        var result = ProbeResult(
            target: "http://127.0.0.1:9/item/\(index)", method: "GET", repetition: 1 + index / 7_000, engine: "curl",
            route: nil, outcome: .cancelled(.deadline(seconds: 1)), message: "not started: the --deadline of 1 s ended the run")
        result.started = false
        return result
    }

    @Test(arguments: [ReportFormat.text, .json, .junit])
    func bulkRecordsAreTheBytesOfOneByOne(format: ReportFormat) throws {
        let failed = ProbeResult(
            target: "http://127.0.0.1:9/", method: "GET", engine: "curl", route: nil,
            outcome: .failed(.connectFailed(authority: "127.0.0.1:9", detail: "refused")), message: "could not connect")
        var single = ReportStream(format: format)
        var bulk = ReportStream(format: format)
        var singleBytes: [UInt8] = []
        var bulkBytes: [UInt8] = []
        single.append(failed, to: &singleBytes)
        bulk.append(failed, to: &bulkBytes)
        for index in 0..<20_000 { single.append(Self.notStarted(index), to: &singleBytes) }
        bulk.append(count: 20_000, result: Self.notStarted, to: &bulkBytes)
        #expect(bulk.summary == single.summary)
        #expect(bulk.summary.cancelled == 20_000)
        #expect(bulkBytes == singleBytes)
        #expect(bulk.finish(elapsed: 1) == single.finish(elapsed: 1))
    }

    @Test func bulkRecordsCanOpenTheReport() throws {
        var single = ReportStream(format: .json)
        var bulk = ReportStream(format: .json)
        var singleBytes: [UInt8] = []
        var bulkBytes: [UInt8] = []
        for index in 0..<5_000 { single.append(Self.notStarted(index), to: &singleBytes) }
        bulk.append(count: 5_000, result: Self.notStarted, to: &bulkBytes)
        #expect(String(decoding: bulkBytes, as: UTF8.self).hasPrefix("{\n  \"probes\": [\n    {"))
        #expect(bulkBytes == singleBytes)
    }
}

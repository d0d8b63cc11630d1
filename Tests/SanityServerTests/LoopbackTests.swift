import Testing

/// Every test that talks to a real server on 127.0.0.1 or ::1. Serialized, so that descriptor
/// counts and timings are not disturbed by another test's connections; the nested suites live
/// in their own files as extensions.
@Suite(.serialized) struct LoopbackTests {}

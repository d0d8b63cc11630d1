import Patterns
import ProbeKit
import Testing

/// `--allow-target` judges the host a URL really goes to: user info cannot dress another host up
/// as an allowed one (a redirect to `http://127.0.0.1:80@127.0.0.2:80/` goes to 127.0.0.2).
@Suite struct TargetFilterTests {
    static func filter(_ pattern: String) throws -> TargetFilter {
        TargetFilter(patterns: [try RegularExpression(TargetFilter.anchored(pattern))], option: "--allow-target")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/health", true),
        ("http://127.0.0.1:8080@127.0.0.2:8080/", false),
        ("http://user:pass@127.0.0.1:8080/x", true),
        ("http://a@b@127.0.0.1:8080/", false),
        ("http://127.0.0.2:8080/?next=http://127.0.0.1:8080@x", false),
    ])
    func userInfoNeverHidesTheHost(url: String, allowed: Bool) throws {
        #expect(try Self.filter(#"https?://127\.0\.0\.1:.*"#).allows(url) == allowed, "\(url)")
    }
}

import Foundation
import StageKit
import TestSupport
import Testing

/// DebianVersion's order against dpkg's own (`dpkg --compare-versions`), the reference.
@Suite struct DebianVersionTests {
    static let pairs: [(String, String)] = [
        ("1:1.2.13.dfsg-1", "1:1.2.13.dfsg-1+deb12u1"), ("20230311+deb12u1", "20250419~deb12u2"), ("1.0~rc1", "1.0"),
        ("1.0", "1.0-1"), ("2:0.1", "1:9.9"), ("1.0a", "1.0+"), ("1.10", "1.9"), ("7.88.1-10+deb12u5", "7.88.1-10+deb12u12"),
        ("1.0", "01.0"), ("22.01+really26.02+dfsg-0+deb12u1", "22.01+dfsg-8"), ("0.1-1", "0.1-1~bpo1"), ("1.2.3", "1.2.3.0"),
    ]

    /// dpkg's verdict: -1, 0 or 1, or `nil` without dpkg.
    private func dpkg(_ left: String, _ right: String) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg") else { return nil }
        func holds(_ relation: String) throws -> Bool {
            let run = try ProcessRun.run(
                URL(fileURLWithPath: "/usr/bin/dpkg"), ["--compare-versions", left, relation, right], limit: .seconds(30))
            return run.status == 0
        }
        if try holds("lt") { return -1 }
        return try holds("eq") ? 0 : 1
    }

    @Test(arguments: pairs) func ordersAsDpkgDoes(left: String, right: String) throws {
        let expected = try #require(try dpkg(left, right), "dpkg is not installed")
        let ours = DebianVersion(left) < DebianVersion(right) ? -1 : DebianVersion(right) < DebianVersion(left) ? 1 : 0
        #expect(ours == expected, "\(left) vs \(right)")
    }
}

import StageKit
import Testing

/// `--failure-threshold`: the lowest severity that makes a run fail, as in hadolint.
@Suite struct LintFailureThresholdTests {
    @Test(arguments: LintFailureThreshold.allCases)
    func thresholdIsReachedByItsOwnSeverityAndEveryHigherOne(_ threshold: LintFailureThreshold) {
        let reached = LintSeverity.allCases.filter { threshold.isReached(by: $0) }
        let expected: [LintSeverity] =
            switch threshold {
            case .error: [.error]
            case .warning: [.error, .warning]
            case .info: [.error, .warning, .info]
            case .style: [.error, .warning, .info, .style]
            case .none: []
            }
        #expect(reached == expected)
    }

    @Test func severitiesAreOrderedFromStyleToError() {
        #expect(LintSeverity.allCases.sorted() == [.style, .info, .warning, .error])
    }

    @Test func defaultThresholdIsWarning() {
        #expect(Linter().failureThreshold == .warning)
    }

    @Test func infoFindingsFailOnlyAtInfoOrBelow() throws {
        // Pinned, so only SB004 (lists kept) and SB005 (recommends installed), both info.
        let text = "RUN apt-get update && apt-get install -y curl=7.88.1-10+deb12u5\n"
        let findings = try Linter().lint(text: text)
        #expect(Set(findings.map(\.severity)) == [.info])
        #expect(!Linter(failureThreshold: .warning).fails(findings))
        #expect(!Linter(failureThreshold: .error).fails(findings))
        #expect(Linter(failureThreshold: .info).fails(findings))
        #expect(Linter(failureThreshold: .style).fails(findings))
        #expect(!Linter(failureThreshold: LintFailureThreshold.none).fails(findings))
    }

    @Test func errorFindingFailsEveryThresholdButNone() throws {
        let findings = try Linter().lint(text: "FROM scratch AS app\nFROM scratch AS app\nUSER 10001\n")
        #expect(findings.map(\.severity) == [.error])
        for threshold in LintFailureThreshold.allCases {
            #expect(Linter(failureThreshold: threshold).fails(findings) == (threshold != .none))
        }
    }

    @Test func noFindingsNeverFail() {
        for threshold in LintFailureThreshold.allCases {
            #expect(!Linter(failureThreshold: threshold).fails([]))
        }
    }
}

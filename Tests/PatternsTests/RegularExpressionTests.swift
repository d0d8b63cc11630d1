import Patterns
import Testing

@Suite struct RegularExpressionTests {
    @Test(arguments: [
        (#""status":\s*"ok""#, #"{"status": "ok"}"#, true), (#"^ready$"#, "ready", true), ("(?i)READY", "ready", true),
        (#"\d{3}"#, "code 42", false), ("é+", "café", true),
    ])
    func matchesAsRE2Does(pattern: String, text: String, matches: Bool) throws {
        #expect(try RegularExpression(pattern).matches(Array(text.utf8)) == matches)
    }

    @Test(arguments: ["(?=a)", "(a", #"\1"#])
    func refusesWhatRE2CannotCompileWithItsMessage(pattern: String) {
        #expect(throws: RegularExpressionError.self) { try RegularExpression(pattern) }
        do {
            _ = try RegularExpression(pattern)
        } catch {
            #expect(!error.reason.isEmpty)
            #expect(error.pattern == pattern)
        }
    }

    /// The patterns that make a backtracking engine take exponential time (`(a+)+b` on a run
    /// of `a`s without a `b`) end with RE2, even on a megabyte; a backtracking engine would
    /// take longer than the time limit by many orders of magnitude.
    @Test(.timeLimit(.minutes(1))) func catastrophicPatternsEnd() throws {
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(try !RegularExpression("(a+)+b").matches(body))
        #expect(try !RegularExpression(#"(\w+\s?)+$"#).matches(Array("word word word!".utf8)))
        #expect(try !RegularExpression(#"^(\w+\s?)+$"#).matches(Array((String(repeating: "word ", count: 5000) + "!").utf8)))
    }

    @Test func matchesAnEmptyText() throws {
        #expect(try RegularExpression("^$").matches([]))
        #expect(try !RegularExpression("a").matches([]))
    }
}

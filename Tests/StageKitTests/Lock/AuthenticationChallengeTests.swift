import StageKit
import Testing

@Suite struct AuthenticationChallengeTests {
    @Test func readsDockerHubsBearerChallenge() throws {
        let challenges = AuthenticationChallenge.parse(
            #"Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/debian:pull""#)
        let bearer = try #require(challenges.first)
        #expect(challenges.count == 1)
        #expect(bearer.scheme == "bearer")
        #expect(bearer.parameters["realm"] == "https://auth.docker.io/token")
        #expect(bearer.parameters["service"] == "registry.docker.io")
        #expect(bearer.parameters["scope"] == "repository:library/debian:pull")
    }

    @Test func readsBasicAndSeveralChallengesInOneValue() throws {
        let challenges = AuthenticationChallenge.parse(
            #"Basic realm="Registry Realm", Bearer realm="https://a.example/token", service=reg, Negotiate abc=="#)
        #expect(challenges.map(\.scheme) == ["basic", "bearer", "negotiate"])
        try #require(challenges.count >= 3)
        #expect(challenges[0].parameters["realm"] == "Registry Realm")
        #expect(challenges[1].parameters["service"] == "reg")
        #expect(!challenges[2].parameters.isEmpty)
    }

    @Test func unescapesQuotedStrings() {
        let challenges = AuthenticationChallenge.parse(#"Basic realm="a \"quoted\" realm\\""#)
        #expect(challenges.first?.parameters["realm"] == #"a "quoted" realm\"#)
    }

    @Test func givesNothingForAnEmptyValue() {
        #expect(AuthenticationChallenge.parse("").isEmpty)
        #expect(AuthenticationChallenge.parse("  ,  ").isEmpty)
    }
}

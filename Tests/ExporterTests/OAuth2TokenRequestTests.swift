import Testing

@testable import Exporter

/// The token request's words as Go's oauth2 package writes them (prometheus/common's `oauth2`).
@Suite struct OAuth2TokenRequestTests {
    @Test func theFormAndTheClientsBasicAreEncodedAsGoEncodesThem() throws {
        var oauth2 = OAuth2ClientCredentials(clientID: "probe id", tokenURL: "https://auth.internal/token")
        oauth2.scopes = ["read", "write all"]
        oauth2.endpointParameters = ["audience": "https://api", "resource": "r"]
        // Go's url.Values.Encode: names sorted, a space as +, the rest QueryEscape'd.
        #expect(
            oauth2.formBody(secret: "s&t", credentialsInBody: false)
                == "audience=https%3A%2F%2Fapi&grant_type=client_credentials&resource=r&scope=read+write+all")
        #expect(
            oauth2.formBody(secret: "s&t", credentialsInBody: true)
                == "audience=https%3A%2F%2Fapi&client_id=probe+id&client_secret=s%26t&grant_type=client_credentials&resource=r&scope=read+write+all"
        )
        // RFC 6749 section 2.3.1: each form-encoded before Basic ("probe+id:s%26t").
        #expect(oauth2.basicAuthorization(secret: "s&t") == "Basic cHJvYmUraWQ6cyUyNnQ=")
        #expect(OAuth2TokenRequest.goTokenType("bearer") == "Bearer" && OAuth2TokenRequest.goTokenType("") == "Bearer")
        #expect(OAuth2TokenRequest.goTokenType("mac") == "MAC" && OAuth2TokenRequest.goTokenType("DPoP") == "DPoP")
    }
}

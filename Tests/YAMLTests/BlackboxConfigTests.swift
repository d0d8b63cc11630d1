import Testing
import YAML

/// A blackbox_exporter config in the format its CONFIGURATION.md documents, read as the
/// exporter command will read one.
@Suite struct BlackboxConfigTests {
    static let config = """
        # blackbox.yml
        modules:
          http_2xx:
            prober: http
            timeout: 5s
            http:
              valid_http_versions: ["HTTP/1.1", "HTTP/2.0"]
              valid_status_codes: [200, 301]
              method: GET
              headers:
                Host: vhost.example.com
                Accept-Language: en-US
                Origin: example.com
              no_follow_redirects: false
              fail_if_ssl: false
              fail_if_not_ssl: true
              fail_if_body_not_matches_regexp:
                - "Copyright 20[0-9]{2}"
                - '^<!DOCTYPE html>'
              tls_config:
                insecure_skip_verify: false
                ca_file: /etc/ssl/certs/internal-ca.pem
                server_name: vhost.example.com
              preferred_ip_protocol: "ip4"
              ip_protocol_fallback: false
          http_post_2xx:
            prober: http
            http:
              method: POST
              headers:
                Content-Type: application/json
              body: |
                {"query": "health"}
          tcp_connect:
            prober: tcp
          icmp:
            prober: icmp
            timeout: 5s
            icmp:
              preferred_ip_protocol: ip4

        """

    @Test func readsTheModulesInTheOrderWritten() throws {
        let root = try #require(try YAMLDocument.parse(Self.config))
        let modules = try #require(root["modules"]?.mapping)
        #expect(modules.map(\.key.scalar) == ["http_2xx", "http_post_2xx", "tcp_connect", "icmp"])
        #expect(root["modules"]?["icmp"]?["icmp"]?["preferred_ip_protocol"]?.scalar == "ip4")
    }

    @Test func readsStatusCodesAsIntegersAndVersionsAsStrings() throws {
        let http = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_2xx"]?["http"])
        let codes = try #require(http["valid_status_codes"]?.sequence)
        #expect(codes.map(\.scalar) == ["200", "301"])
        #expect(codes.allSatisfy { $0.resolvedTag == "tag:yaml.org,2002:int" && $0.scalarStyle == .plain })
        let versions = try #require(http["valid_http_versions"]?.sequence)
        #expect(versions.map(\.scalar) == ["HTTP/1.1", "HTTP/2.0"])
        #expect(versions.allSatisfy { $0.scalarStyle == .doubleQuoted })
    }

    @Test func keepsHeadersInOrderWithTheirCase() throws {
        let http = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_2xx"]?["http"])
        let headers = try #require(http["headers"]?.mapping)
        #expect(headers.map(\.key.scalar) == ["Host", "Accept-Language", "Origin"])
        #expect(headers.map(\.value.scalar) == ["vhost.example.com", "en-US", "example.com"])
    }

    @Test func readsTLSConfigBooleansAndPaths() throws {
        let http = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_2xx"]?["http"])
        let tls = try #require(http["tls_config"])
        #expect(tls["insecure_skip_verify"]?.scalar == "false")
        #expect(tls["insecure_skip_verify"]?.resolvedTag == "tag:yaml.org,2002:bool")
        #expect(tls["ca_file"]?.scalar == "/etc/ssl/certs/internal-ca.pem")
        #expect(tls["ca_file"]?.resolvedTag == "tag:yaml.org,2002:str")
        #expect(http["fail_if_not_ssl"]?.scalar == "true")
    }

    @Test func readsRegularExpressionsAsWrittenInsideQuotes() throws {
        let http = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_2xx"]?["http"])
        let patterns = try #require(http["fail_if_body_not_matches_regexp"]?.sequence)
        #expect(patterns.map(\.scalar) == ["Copyright 20[0-9]{2}", "^<!DOCTYPE html>"])
        #expect(patterns.map(\.scalarStyle) == [.doubleQuoted, .singleQuoted])
    }

    @Test func keepsALiteralBodyWithItsFinalLineBreak() throws {
        let post = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_post_2xx"]?["http"])
        #expect(post["body"]?.scalar == "{\"query\": \"health\"}\n")
        #expect(post["body"]?.scalarStyle == .literal)
    }

    /// Line 8 is `      valid_status_codes: [200, 301]`; the sequence's `[` is its column 27.
    @Test func marksNodesWhereTheyStartInTheFile() throws {
        let http = try #require(try YAMLDocument.parse(Self.config)?["modules"]?["http_2xx"]?["http"])
        let codes = try #require(http["valid_status_codes"])
        #expect(codes.mark == YAMLMark(line: 8, column: 27))
        #expect(codes.sequence?.last?.mark == YAMLMark(line: 8, column: 33))
        let tlsKey = try #require(http.mapping?.first { $0.key.scalar == "tls_config" }?.key)
        #expect(tlsKey.mark == YAMLMark(line: 20, column: 7))
        #expect(http["tls_config"]?.mark == YAMLMark(line: 21, column: 9))
    }
}

import Foundation

/// The exporter's words for what the probe's reports call command-line options: a module's
/// `blackbox.yml` keys, so an exporter user is pointed at the file they edit, not at flags the
/// exporter does not take (`probe-exporter-speaks-cli-flags`).
///
/// The reports are written once, for both (`FailureReason`'s catalogue); this table is the one
/// place that says what each option is in a module.
enum ModuleWords {
    /// Each option the probe's hints and notes name, with what a module writes instead;
    /// longer spellings first, so `--cacert FILE` is read before `--cacert`.
    static let replacements: [(option: String, module: String)] = [
        ("--allow-invalid-certificates", "tls_config: {insecure_skip_verify: true}"),
        ("--no-validate-domain-name", "stagebuild: {validate_domain_name: false}"),
        ("--pinned-public-key", "stagebuild: {pinned_public_keys: [...]}"),
        ("--cacert FILE", "tls_config: {ca_file: FILE}"),
        ("--cacert", "tls_config: ca_file"),
        (#"--proxy "" goes direct"#, "a module without proxy_url goes direct"),
        (#"--proxy "" disables proxies"#, "the module has no proxy_url (blackbox uses none unless told)"),
        ("--noproxy", "no_proxy"),
        ("the --max-time", "the module's timeout"),
        ("raise --connect-timeout", "raise the module's timeout"),
        ("the --connect-timeout", "the connect limit"),
        ("--connect-timeout", "the module's timeout"),
        (
            "give them here with --proxy-user USER:PASSWORD",
            "a module cannot give credentials to a proxy its PAC script chooses: probe that proxy with a module whose "
                + "proxy_url carries them"
        ),
        ("--max-time", "the module's timeout"),
        (" bytes (body_size_limit)", " bytes"),
        ("--body-size-limit", "body_size_limit"),
        (
            "raise --max-redirs if the chain is expected",
            "a module cannot raise the limit (Go's client, as blackbox's, follows 10); no_follow_redirects: true judges "
                + "the redirect itself"
        ),
        ("--proxy-cacert FILE", "tls_config: {ca_file: FILE} (it holds for an https:// proxy_url too)"),
        ("--proxy-insecure", "tls_config: {insecure_skip_verify: true} (it holds for an https:// proxy_url too)"),
    ]

    /// A report's text in module words: `--expect-status CODES` is `valid_status_codes:
    /// [CODES]`, each option of ``replacements`` its module key, and a parenthesis that offers
    /// `--compare-direct` (which only `stagebuild probe` runs) names that command.
    ///
    /// - Parameter text: A rendered report, hint or note.
    /// - Returns: The same text with module keys where it named options.
    static func translate(_ text: String) -> String {
        var result = text
        while let range = result.range(of: "--expect-status ") {
            let codes = result[range.upperBound...].prefix { !$0.isWhitespace }
            result.replaceSubrange(
                range.lowerBound..<result.index(range.upperBound, offsetBy: codes.count),
                with: "valid_status_codes: [\(codes)]")
        }
        while let range = result.range(of: "(--max-redirs ") {
            let rest = result[range.upperBound...].prefix { $0 != ")" }
            let end = result.index(range.upperBound, offsetBy: rest.count)
            result.replaceSubrange(range.lowerBound..<min(result.index(after: end), result.endIndex), with: "(Go's limit)")
        }
        for (option, module) in replacements {
            result = result.replacingOccurrences(of: option, with: module)
        }
        return result.replacingOccurrences(of: "--compare-direct", with: "stagebuild probe --compare-direct")
    }
}

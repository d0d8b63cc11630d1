import Testing

@testable import Exporter

/// `probe-exporter-speaks-cli-flags`: the exporter's page names a module's keys, never a flag
/// the exporter does not take.
@Suite struct ModuleWordsTests {
    @Test(arguments: [
        ("hint: --expect-status 503 if this status is expected", "hint: valid_status_codes: [503] if this status is expected"),
        (
            "renew the certificate; --allow-invalid-certificates skips the check",
            "renew the certificate; tls_config: {insecure_skip_verify: true} skips the check"
        ),
        (
            "--cacert FILE with the CA that issued it, or --no-validate-domain-name",
            "tls_config: {ca_file: FILE} with the CA that issued it, or stagebuild: {validate_domain_name: false}"
        ),
        (
            #"check the proxy's host name in proxy_url; --proxy "" goes direct"#,
            "check the proxy's host name in proxy_url; a module without proxy_url goes direct"
        ),
        (
            #"route      direct: --proxy "" disables proxies"#,
            "route      direct: the module has no proxy_url (blackbox uses none unless told)"
        ),
        (
            "cert from unknown (--compare-direct tells them apart)",
            "cert from unknown (stagebuild probe --compare-direct tells them apart)"
        ),
    ])
    func optionsAreSaidAsModuleKeys(_ report: String, _ page: String) {
        #expect(ModuleWords.translate(report) == page)
    }

    @Test func noOptionOfTheCatalogueIsLeftOnTheExportersPage() {
        let report = ModuleWords.translate(
            "--expect-status 200-299,404 --allow-invalid-certificates --cacert --noproxy --max-time --pinned-public-key")
        #expect(!report.contains("--expect-status") && !report.contains("--allow") && !report.contains("--cacert"))
        #expect(!report.contains("--noproxy") && !report.contains("--max-time") && !report.contains("--pinned"))
    }
}

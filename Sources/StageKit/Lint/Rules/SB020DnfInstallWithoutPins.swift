import DockerfileSyntax

/// SB020: `dnf install`, `yum install` or `microdnf install` names packages without
/// `-VERSION`, so each build installs whatever version the repositories hold that day. A
/// package counts as pinned when the part after its last `-` starts with a digit, as in
/// `git-2.43.5` or `git-2.43.5-1.el9`: `java-17-openjdk` is not pinned (its version would
/// follow `openjdk`). Local or remote `.rpm` files, groups and modules (`@name`), file paths
/// and variable references are not checked.
///
/// Source: hadolint DL3041 ("Specify version with dnf install -y <package>-<version>", dnf and
/// microdnf) and DL3033 (the same for yum); dnf docs, "Specifying Packages" (NAME-VERSION).
struct SB020DnfInstallWithoutPins: LintRule {
    let id = "SB020"
    let name = "dnf-install-without-pins"
    let severity = LintSeverity.warning
    let summary = "dnf, yum or microdnf install names packages without -version pins."
    let hint = "pin every package as NAME-VERSION (dnf list --showduplicates NAME shows the versions)"
    let triggeringExamples = [
        "RUN dnf install -y https://dl.fedoraproject.org/pub/epel/epel-release-latest-9.noarch.rpm && dnf clean all\n",
        "FROM fedora:40\nRUN dnf install -y git && dnf clean all\n",
        "RUN yum install -y --setopt=tsflags=nodocs java-17-openjdk && yum clean all\n",
        "RUN microdnf install -y shadow-utils-4.9-9.el9 tar && microdnf clean all\n",
        "RUN <<EOF\nset -eux\ndnf --enablerepo crb install -y python3-pip\ndnf clean all\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN dnf install -y git-2.43.5-1.el9 java-17-openjdk-17.0.12.0.7-2.el9 && dnf clean all\n",
        "RUN yum install -y https://example.com/tool-1.2.3-1.x86_64.rpm \"curl-${CURL_VERSION}\" && yum clean all\n",
        "RUN dnf install -y @development-tools /usr/bin/make && dnf clean all\n",
        "RUN dnf module enable -y nodejs:20 && dnf list installed\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let dnf = PackageCommand.dnf(command), dnf.action == "install" else { return nil }
            return ("\(dnf.program) install", dnf.operands)
        } isPinned: {
            Self.isPinned($0)
        }
    }

    /// `NAME-VERSION[-RELEASE]`, an `.rpm` file, a group or module, a path, or a variable
    /// reference. A URL whose file name says `latest` (EPEL's `epel-release-latest-9.noarch.rpm`)
    /// is whatever the server holds that day, not a pin.
    private static func isPinned(_ package: String) -> Bool {
        if package.contains("://"), let file = package.split(separator: "/").last, file.lowercased().contains("latest") {
            return false
        }
        if package.hasSuffix(".rpm") || package.hasPrefix("@") || package.hasPrefix("/") || package.contains("$") {
            return true
        }
        guard let dash = package.lastIndex(of: "-") else { return false }
        return package[package.index(after: dash)...].first?.isNumber ?? false
    }
}

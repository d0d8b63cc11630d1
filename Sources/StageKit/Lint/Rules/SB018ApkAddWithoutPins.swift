import DockerfileSyntax

/// SB018: `apk add` names packages without a version constraint (`NAME=VERSION`, the fuzzy
/// `NAME~VERSION`, or a `<`/`>` bound), so each build installs whatever version the Alpine
/// repository holds that day. Local `.apk` files, the name after `--virtual` (`-t`) and
/// variable references are not checked.
///
/// Source: hadolint DL3018 ("Pin versions in apk add"), which reads constraints the same way;
/// apk-tools docs, apk-world(5) (the constraint operators).
struct SB018ApkAddWithoutPins: LintRule {
    let id = "SB018"
    let name = "apk-add-without-pins"
    let severity = LintSeverity.warning
    let summary = "apk add names packages without =version pins."
    let hint = "pin every package as NAME=VERSION (apk policy NAME shows the versions), or NAME~MAJOR.MINOR for a release line"
    let triggeringExamples = [
        "FROM alpine:3.20\nRUN apk add --no-cache curl\n",
        "RUN apk --no-cache add ca-certificates=20240705-r0 git\n",
        "RUN apk add --no-cache --virtual .build-deps gcc=13.2.1_git20240309-r0 musl-dev\n",
        "RUN <<EOF\nset -eux\napk update\napk add --no-cache tini\nrm -rf /var/cache/apk/*\nEOF\n",
    ]
    let nonTriggeringExamples = [
        "RUN apk add --no-cache curl=8.9.1-r2 'git~2.45'\n",
        "RUN apk add --no-cache --virtual=.build-deps 'openssl>3.3' ./vendor/tool-1.2.3-r0.apk\n",
        "RUN apk add --no-cache \"tini=${TINI_VERSION}\"\n",
        "RUN apk del .build-deps && apk info\n",
    ]

    func check(_ document: DockerfileDocument) -> [LintFinding] {
        unpinnedPackageFindings(in: document) { command in
            guard let apk = PackageCommand.apk(command), apk.action == "add" else { return nil }
            return ("apk add", apk.operands)
        } isPinned: {
            $0.contains { "=~<>".contains($0) } || $0.hasSuffix(".apk") || $0.contains("$")
        }
    }
}

#!/usr/bin/env python3
"""stagebuild lint beside hadolint on the shapes in Tests/Oracle/LintRecall/: recall and false
alarms, measured against the reference.

    Tests/Oracle/lint_recall.py STAGEBUILD HADOLINT

Recall: every finding hadolint makes there with a rule stagebuild also has (the table RULES)
must have a stagebuild finding of the matching rule inside the same instruction (hadolint
reports an instruction's first line, stagebuild the word's own line; BuildKit's parser gives
the instruction's lines). Findings only stagebuild makes are listed, not failed: stagebuild is
stricter in places on purpose (pip's requirements files without hashes, say).

False alarms: each file in LintRecall/no-false-alarms/ says on its first line which rules must
not fire on it (`# expect-none: SB010,SB012`), shapes seen in real files that an earlier
version reported wrongly.

Exits 1 with every miss and false alarm listed. A test oracle only.
"""
import json
import pathlib
import subprocess
import sys

import dockerfile

# hadolint's rule -> stagebuild's rule for the same fault.
RULES = {
    "DL3008": "SB003",  # apt-get install without pins
    "DL3009": "SB004",  # apt lists not removed
    "DL3013": "SB007",  # pip install without pins
    "DL3015": "SB005",  # apt-get install without --no-install-recommends
    "DL3016": "SB024",  # npm install without a version
    "DL3018": "SB018",  # apk add without pins
    "DL3019": "SB019",  # apk add without --no-cache
    "DL3028": "SB025",  # gem install without a version
    "DL3032": "SB021",  # yum clean all missing
    "DL3033": "SB020",  # yum install without a version
    "DL3037": "SB022",  # zypper install without a version
    "DL3040": "SB021",  # dnf clean all missing
    "DL3041": "SB020",  # dnf/microdnf install without a version
    "DL3062": "SB023",  # go install without @version
    "DL4006": "SB027",  # pipe without pipefail
}

HERE = pathlib.Path(__file__).resolve().parent / "LintRecall"


def stagebuild_findings(stagebuild, path):
    run = subprocess.run(
        [stagebuild, "lint", "--format", "json", "--failure-threshold", "none", str(path)],
        capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise SystemExit(f"stagebuild lint {path} exited {run.returncode}: {run.stderr}")
    return json.loads(run.stdout)


def hadolint_findings(hadolint, path):
    run = subprocess.run(
        [hadolint, "--no-fail", "--format", "json", str(path)], capture_output=True, text=True, timeout=120)
    return json.loads(run.stdout or "[]")


def main(stagebuild, hadolint):
    problems = []
    matched = 0
    for path in sorted(HERE.glob("*.Dockerfile")):
        spans = [(command.start_line, command.end_line) for command in dockerfile.parse_file(str(path))]
        ours = stagebuild_findings(stagebuild, path)
        theirs = [finding for finding in hadolint_findings(hadolint, path) if finding["code"] in RULES]
        used = set()
        for finding in theirs:
            span = next(((start, end) for start, end in spans if start <= finding["line"] <= end), None)
            rule = RULES[finding["code"]]
            hits = [index for index, mine in enumerate(ours)
                    if mine["rule"] == rule and span and span[0] <= mine["line"] <= span[1]]
            if hits:
                matched += 1
                used.update(hits)
            else:
                problems.append(f"{path.name}:{finding['line']}: hadolint {finding['code']} ({finding['message']}) "
                                f"has no {rule} in that instruction")
        extra = [mine for index, mine in enumerate(ours) if index not in used and mine["rule"] in RULES.values()]
        for mine in extra:
            print(f"{path.name}:{mine['line']}:{mine['column']}: only stagebuild: {mine['rule']} {mine['message']}")
    alarms_checked = 0
    for path in sorted((HERE / "no-false-alarms").glob("*.Dockerfile")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if not first.startswith("# expect-none:"):
            problems.append(f"{path.name}: first line must be '# expect-none: SBnnn[,SBnnn]'")
            continue
        banned = {rule.strip() for rule in first.split(":", 1)[1].split(",")}
        for mine in stagebuild_findings(stagebuild, path):
            if mine["rule"] in banned:
                problems.append(f"no-false-alarms/{path.name}:{mine['line']}:{mine['column']}: false alarm "
                                f"{mine['rule']} {mine['message']}")
        alarms_checked += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"lint recall: {matched} hadolint findings matched, {len(problems)} problems; "
          f"{alarms_checked} false-alarm shapes checked")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1], sys.argv[2]))

#!/usr/bin/env python3
"""stagebuild lint beside hadolint on the shapes in Tests/Oracle/LintRecall/: recall and false
alarms, measured against the reference.

    Tests/Oracle/lint_recall.py STAGEBUILD HADOLINT [--update]

Recall: every finding hadolint makes there with a rule stagebuild also has (the table RULES)
must have a stagebuild finding of the matching rule inside the same instruction (hadolint
reports an instruction's first line, stagebuild the word's own line; BuildKit's parser gives
the instruction's lines). Findings only stagebuild makes are listed, not failed: stagebuild is
stricter in places on purpose (pip's requirements files without hashes, say).

False alarms: each file in LintRecall/no-false-alarms/ says on its first line which rules must
not fire on it (`# expect-none: SB010,SB012`), shapes seen in real files that an earlier
version reported wrongly.

Real files: every Dockerfile in LintRecall/corpus/ (public files, each with its source and
commit in corpus/SOURCES.md) and, when STAGEBUILD_LINT_CORPUS names a folder, every file in it.
For each rule of the table RULES the script prints the findings both tools make inside the same
instruction, those only hadolint makes and those only stagebuild makes. On the checked-in corpus,
every stagebuild finding was reviewed by hand as true; corpus/findings.txt holds them, one
`FILE:LINE:COLUMN RULE MESSAGE` a line, and a run whose findings differ fails with the
difference, so a new finding is reviewed before it lands (--update rewrites the file after that
review).

Exits 1 with every miss, false alarm and unreviewed difference listed. A test oracle only.
"""
import os
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


def compare(stagebuild, hadolint, path):
    """The findings of both tools on one file, paired inside the same instruction for the rules
    of RULES: matched and hadolint-only as lists of (rule, line, text), stagebuild-only and all of
    stagebuild's findings as its JSON objects."""
    try:
        spans = [(command.start_line, command.end_line) for command in dockerfile.parse_file(str(path))]
    except Exception:  # BuildKit's parser refuses the file: nothing to pair
        spans = []
    ours = stagebuild_findings(stagebuild, path)
    theirs = [finding for finding in hadolint_findings(hadolint, path) if finding["code"] in RULES]
    matched, missed, used = [], [], set()
    for finding in theirs:
        span = next(((start, end) for start, end in spans if start <= finding["line"] <= end), None)
        rule = RULES[finding["code"]]
        hits = [index for index, mine in enumerate(ours)
                if mine["rule"] == rule and span and span[0] <= mine["line"] <= span[1]]
        if hits:
            matched.append((rule, finding["line"], finding["message"]))
            used.update(hits)
        else:
            missed.append((rule, finding["line"], f"hadolint {finding['code']} ({finding['message']})"))
    extra = [mine for index, mine in enumerate(ours) if index not in used and mine["rule"] in RULES.values()]
    return matched, missed, extra, ours


def corpus_report(stagebuild, hadolint, folders, update):
    """Per-rule counts over real files, and the reviewed findings of the checked-in corpus."""
    problems = []
    table = {rule: [0, 0, 0] for rule in sorted(set(RULES.values()))}
    lines = []
    for folder in folders:
        for path in sorted(folder.glob("*")):
            if path.name in ("SOURCES.md", "findings.txt") or not path.is_file():
                continue
            matched, missed, extra, ours = compare(stagebuild, hadolint, path)
            for rule, _, _ in matched:
                table[rule][0] += 1
            for rule, _, _ in missed:
                table[rule][1] += 1
            for mine in extra:
                table[mine["rule"]][2] += 1
            for rule, line, text in missed:
                print(f"{path.name}:{line}: only hadolint: {text} ({rule}'s scope)")
            if folder == CORPUS:
                lines += [f"{path.name}:{mine['line']}:{mine['column']} {mine['rule']} {mine['message']}" for mine in ours]
    print("rule   both  hadolint-only  stagebuild-only")
    for rule, (both, only_theirs, only_ours) in table.items():
        print(f"{rule}  {both:5}  {only_theirs:13}  {only_ours:15}")
    reviewed_path = CORPUS / "findings.txt"
    reviewed = reviewed_path.read_text(encoding="utf-8").splitlines() if reviewed_path.exists() else []
    if update:
        reviewed_path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    elif lines != reviewed:
        for line in sorted(set(lines) - set(reviewed)):
            problems.append(f"corpus: not reviewed yet: {line}")
        for line in sorted(set(reviewed) - set(lines)):
            problems.append(f"corpus: reviewed finding gone: {line}")
    return problems


CORPUS = HERE / "corpus"


def main(stagebuild, hadolint, update=False):
    problems = []
    matched = 0
    for path in sorted(HERE.glob("*.Dockerfile")):
        found, missed, extra, _ = compare(stagebuild, hadolint, path)
        matched += len(found)
        for rule, line, text in missed:
            problems.append(f"{path.name}:{line}: {text} has no {rule} in that instruction")
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
    folders = [CORPUS] + ([pathlib.Path(os.environ["STAGEBUILD_LINT_CORPUS"])] if os.environ.get("STAGEBUILD_LINT_CORPUS") else [])
    problems += corpus_report(stagebuild, hadolint, folders, update)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"lint recall: {matched} hadolint findings matched, {len(problems)} problems; "
          f"{alarms_checked} false-alarm shapes checked")
    return 1 if problems else 0


if __name__ == "__main__":
    arguments = [argument for argument in sys.argv[1:] if argument != "--update"]
    if len(arguments) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(arguments[0], arguments[1], update="--update" in sys.argv[1:]))

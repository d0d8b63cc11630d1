#!/usr/bin/env python3
"""Oracle: dump BuildKit's own Dockerfile parse of each file as canonical JSON.

Uses the PyPI package ``dockerfile`` (3.4.0), which wraps the parser of
github.com/moby/buildkit v0.12.5 (frontend/dockerfile/parser).

Usage:
  buildkit_dump.py FILE...        print the canonical JSON of each file (with a
                                  "==> FILE <==" header when given several)
  buildkit_dump.py --write DIR... write <name>.buildkit.json beside every *.Dockerfile
  buildkit_dump.py --check DIR... compare goldens on disk with a fresh parse;
                                  exit 1 on any mismatch or missing golden
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

try:
    import dockerfile
except ImportError:  # pragma: no cover - environment problem, not a test failure
    sys.stderr.write(
        "buildkit_dump.py: the 'dockerfile' package is missing; "
        "install it with: pip install dockerfile==3.4.0\n"
    )
    sys.exit(70)

EXPECTED_VERSION = "3.4.0"  # wraps moby/buildkit v0.12.5
SUFFIX = ".Dockerfile"
GOLDEN_SUFFIX = ".buildkit.json"


def parse(path: Path) -> dict:
    """Parse one file with BuildKit and return the canonical object."""
    try:
        commands = dockerfile.parse_file(str(path))
    except dockerfile.GoParseError as exc:
        return {"rejected": True, "message": str(exc)}
    except dockerfile.GoIOError as exc:
        return {"rejected": True, "message": str(exc)}
    instructions = []
    for c in commands:
        instructions.append(
            {
                "cmd": c.cmd,
                "subCmd": c.sub_cmd,
                "json": c.json,
                "original": c.original,
                "startLine": c.start_line,
                "endLine": c.end_line,
                "flags": list(c.flags),
                "value": list(c.value),
                "heredocs": [
                    {
                        "name": h.name,
                        "fileDescriptor": h.file_descriptor,
                        "content": h.content,
                    }
                    for h in c.heredocs
                ],
            }
        )
    return {"instructions": instructions}


def canonical(path: Path) -> str:
    return json.dumps(parse(path), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def golden_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(SUFFIX)] + GOLDEN_SUFFIX)


def corpus(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*" + SUFFIX) if p.is_file())


def write_text(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def cmd_write(roots: list[Path]) -> int:
    files = [f for root in roots for f in corpus(root)]
    for f in files:
        write_text(golden_path(f), canonical(f))
    print(f"wrote {len(files)} goldens")
    return 0


def cmd_check(roots: list[Path]) -> int:
    files = [f for root in roots for f in corpus(root)]
    bad = 0
    orphans = 0
    for f in files:
        g = golden_path(f)
        fresh = canonical(f)
        if not g.exists():
            bad += 1
            print(f"missing golden: {g}")
            sys.stdout.writelines(
                difflib.unified_diff([], fresh.splitlines(True), str(g), f"{f} (BuildKit)")
            )
            continue
        old = g.read_bytes().decode("utf-8")
        if old != fresh:
            bad += 1
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True), fresh.splitlines(True), str(g), f"{f} (BuildKit)"
                )
            )
    expected = {golden_path(f) for f in files}
    for root in roots:
        for g in sorted(root.rglob("*" + GOLDEN_SUFFIX)):
            if g not in expected:
                orphans += 1
                print(f"orphan golden (no {SUFFIX} beside it): {g}")
    agree = len(files) - bad
    if bad:
        print(f"{bad} files disagree with BuildKit (or have no golden)")
    if orphans:
        print(f"{orphans} orphan goldens")
    print(f"{agree} files agree with BuildKit")
    return 1 if bad or orphans else 0


def warn_on_other_version() -> None:
    try:
        from importlib.metadata import version

        found = version("dockerfile")
    except Exception:  # metadata missing: nothing to compare
        return
    if found != EXPECTED_VERSION:
        sys.stderr.write(
            f"buildkit_dump.py: warning: dockerfile {found} is installed, the goldens "
            f"were made with {EXPECTED_VERSION}\n"
        )


def main(argv: list[str]) -> int:
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    warn_on_other_version()
    if len(argv) >= 2 and argv[0] in ("--write", "--check"):
        roots = [Path(a) for a in argv[1:]]
        for root in roots:
            if not root.is_dir():
                sys.stderr.write(f"buildkit_dump.py: not a directory: {root}\n")
                return 64
        run = cmd_write if argv[0] == "--write" else cmd_check
        return run(roots)
    if not argv or any(a.startswith("--") for a in argv):
        sys.stderr.write(__doc__ or "")
        return 64
    for a in argv:
        if not Path(a).is_file():
            sys.stderr.write(f"buildkit_dump.py: no such file: {a}\n")
            return 66
        if len(argv) > 1:
            print(f"==> {a} <==")
        sys.stdout.write(canonical(Path(a)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Writes a synthetic catalog of N layer templates and a Stagefile with M USEs.

Usage: generate.py DIR TEMPLATES USES
Each template has two parameters and a few instructions; every tenth one requires the
template before it, so `requires` is exercised. USEs spread over build stages of 20 each.
Prints the paths of the files compose reads (the Stagefile, then each used template).
"""
import sys
from pathlib import Path

root = Path(sys.argv[1])
templates, uses = int(sys.argv[2]), int(sys.argv[3])
stages = root / "Stages"
stages.mkdir(parents=True, exist_ok=True)
(stages / "base.Dockerfile").write_text(
    "# summary: synthetic base\nFROM debian:bookworm-slim\nARG BASE_FLAG=1\nRUN echo base\n"
)
for i in range(templates):
    requires = f"# requires: layer-{i - 1:04d}\n" if i % 10 == 9 else ""
    (stages / f"layer-{i:04d}.Dockerfile").write_text(
        f"# summary: synthetic layer {i}\n{requires}"
        f"# param P{i}_A: first parameter\n# param P{i}_B: second parameter\n"
        f"ARG P{i}_A=alpha\nARG P{i}_B\n"
        f"# step comment\nRUN echo \"${{P{i}_A}}\" \\\n    && echo \"${{P{i}_B}}\" > /tmp/layer-{i}\n"
        f"ENV LAYER_{i}=on\nCOPY <<EOF /etc/layer-{i}.conf\nvalue=${{P{i}_A}}\nEOF\n"
    )
lines = []
used = set()
step = max(1, templates // uses)
for n in range(uses):
    if n % 20 == 0:
        lines.append(f"\nFROM stage:base AS stage{n // 20}")
        used.add("base")
    i = (n * step) % templates
    lines.append(f"USE layer-{i:04d} P{i}_B='value {n}'")
    used.add(f"layer-{i:04d}")
    if i % 10 == 9:
        used.add(f"layer-{i - 1:04d}")
(root / "Stagefile").write_text("\n".join(lines).lstrip() + "\n")
print(root / "Stagefile")
for name in sorted(used):
    print(stages / f"{name}.Dockerfile")

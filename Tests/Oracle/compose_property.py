#!/usr/bin/env python3
"""Property test: a composed Dockerfile means what its parts mean, in their order.

For generated catalogs and Stagefiles (seeded, so a failure reproduces), runs
`stagebuild compose` and compares BuildKit's parse of the output (PyPI `dockerfile`, the
parser of BuildKit v0.12.5) with BuildKit's parses of the parts: the base template's
instructions (its FROM with the Stagefile's alias, and the Stagefile's `--platform` in place
of the template's), each layer template's instructions in order with the bound values in place
of the parameters' defaults (a required parameter left unbound reads the Stagefile's global ARG
of its name, its ARG line unchanged), and the Stagefile's own instructions. Heredoc bodies must come through byte for byte (CRLF included); every other
instruction keeps its keyword, flags and arguments.

Usage: compose_property.py STAGEBUILD [CASES] [SEED]
Exits 1 with the first failing case's files kept in a temporary folder.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from pathlib import Path

import dockerfile

WORDS = ["alpha", "beta", "gamma", "delta", "/opt/tool", "x.y", "a-b", "c_d", "3000"]
VALUE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789 _-./:$'\""


def line_end(rng: random.Random) -> str:
    return rng.choice(["\n", "\n", "\r\n"])


def instruction(rng: random.Random, parameters: list[str], end: str) -> str:
    """One random step a template or Stagefile may hold."""
    kind = rng.randrange(9)
    word = rng.choice(WORDS)
    if kind == 0:
        return f"RUN echo {word}{end}"
    if kind == 1:
        return f"RUN echo {word} \\{end}    # a comment inside{end}{end}    && echo done{end}"
    if kind == 2:
        body_end = rng.choice(["\n", "\r\n"])
        return f"COPY <<EOF /etc/{word.strip('/').replace('/', '-')}.conf{end}line one{body_end}line two{body_end}EOF{end}"
    if kind == 3:
        return f"RUN <<-EOT{end}\techo {word}{end}\tEOT{end}"
    if kind == 4:
        return f'ENV KEY_{rng.randrange(9)}={word} OTHER="two words"{end}'
    if kind == 5:
        return f'LABEL org.example.k{rng.randrange(9)}="{word}"{end}'
    if kind == 6:
        return f"WORKDIR /srv/{word.strip('/')}{end}"
    if kind == 7 and parameters:
        return f'RUN echo "${{{rng.choice(parameters)}}}"{end}'
    return f'CMD ["echo", "{word}"]{end}'


def template(rng: random.Random, name: str, base: bool) -> tuple[str, list[str], set[str]]:
    """A template's text, its parameter names and the required ones (no default; a base
    template's parameters all have defaults, as the Stagefile binds none of them here)."""
    end = line_end(rng)
    text = f"# summary: generated {name}{end}"
    parameters = [f"{name.upper().replace('-', '_')}_P{i}" for i in range(rng.randrange(3))]
    if base:
        platform = rng.choice(["", "", "--platform=linux/amd64 "])
        text += f"FROM {platform}debian:bookworm-slim{end}"
    declared: list[str] = []
    required: set[str] = set()
    for _ in range(rng.randrange(1, 6)):
        if parameters and rng.random() < 0.4:
            parameter = parameters.pop(0)
            has_default = base or rng.random() < 0.7
            text += f"ARG {parameter}{'=' + rng.choice(WORDS) if has_default else ''}{end}"
            declared.append(parameter)
            if not has_default:
                required.add(parameter)
        text += instruction(rng, declared, end)
    for parameter in parameters:
        text += f"ARG {parameter}={rng.choice(WORDS)}{end}"
        declared.append(parameter)
    return text, declared, required


def value(rng: random.Random) -> str:
    return "".join(rng.choice(VALUE_CHARS) for _ in range(rng.randrange(1, 12))).strip() or "v"


def quote_for_stagefile(text: str) -> str:
    """A binding's value as a Stagefile writes it: double-quoted, `"` `\\` `$` escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def case(rng: random.Random, root: Path) -> list[tuple]:
    """Writes one project; returns the expected parts in order."""
    stages = root / "Stages"
    stages.mkdir(parents=True)
    base_text, _, _ = template(rng, "base", True)
    (stages / "base.Dockerfile").write_bytes(base_text.encode())
    layers = {}
    for index in range(rng.randrange(1, 4)):
        name = f"layer-{index}"
        text, parameters, required = template(rng, name, False)
        (stages / f"{name}.Dockerfile").write_bytes(text.encode())
        layers[name] = (parameters, required)
    end = line_end(rng)
    # A required parameter may be left to the Stagefile's global ARG of its name.
    globals_ = {p: value(rng) for _, required in layers.values() for p in sorted(required) if rng.random() < 0.4}
    stagefile = "".join(f"ARG {k}={quote_for_stagefile(v)}{end}" for k, v in globals_.items())
    parts: list[tuple] = [("own", stagefile)] if stagefile else []
    platform = rng.choice([None, None, "$BUILDPLATFORM", "linux/arm64"])
    stagefile += f"FROM {'--platform=' + platform + ' ' if platform else ''}stage:base AS app{end}"
    parts.append(("template", "base", {}, platform))
    for name in rng.sample(sorted(layers), k=len(layers)):
        parameters, required = layers[name]
        bindings = {
            p: value(rng) for p in parameters if (p in required and p not in globals_) or rng.random() < 0.6
        }
        written = " ".join(f"{k}={quote_for_stagefile(v)}" for k, v in bindings.items())
        stagefile += f"USE {name} {written}".rstrip() + end
        parts.append(("template", name, bindings, None))
        if rng.random() < 0.5:
            own = instruction(rng, [], end)
            stagefile += own
            parts.append(("own", own))
    stagefile += f"USER 1000{end}"
    parts.append(("own", f"USER 1000{end}"))
    (root / "Stagefile").write_bytes(stagefile.encode())
    return parts


def commands(text: str):
    return list(dockerfile.parse_string(text))


def shape(command) -> tuple:
    heredocs = tuple(h.content for h in getattr(command, "heredocs", ()) or ())
    return (command.cmd, tuple(command.flags), tuple(command.value), command.json, heredocs)


def unquote(word: str) -> str:
    """A word with quotes removed as BuildKit's shell lexer removes them: in double quotes a
    backslash escapes `"`, `\\`, `$` and a backtick; in single quotes nothing; outside, any."""
    result, index, quote = "", 0, None
    while index < len(word):
        char = word[index]
        if quote == "'":
            if char == "'":
                quote = None
            else:
                result += char
        elif char == "\\" and index + 1 < len(word) and (quote is None or word[index + 1] in '"\\$`'):
            result += word[index + 1]
            index += 1
        elif char == '"':
            quote = None if quote == '"' else '"'
        elif char == "'" and quote is None:
            quote = "'"
        else:
            result += char
        index += 1
    return result


def expected(root: Path, parts: list[tuple]) -> list[tuple]:
    result = []
    for part in parts:
        if part[0] == "own":
            for command in commands(part[1]):
                if command.cmd == "ARG":
                    pairs = [word.split("=", 1) for word in command.value]
                    result.append(("ARG", tuple((p[0], unquote(p[1]) if len(p) == 2 else None) for p in pairs)))
                else:
                    result.append(shape(command))
            continue
        _, name, bindings, platform = part
        for command in commands((root / "Stages" / f"{name}.Dockerfile").read_bytes().decode()):
            if command.cmd == "FROM":
                flags = (f"--platform={platform}",) if platform else tuple(command.flags)
                result.append(("FROM", flags, tuple(command.value) + ("as", "app"), False, ()))
            elif command.cmd == "ARG":
                values = []
                for word in command.value:
                    key = word.split("=", 1)[0]
                    values.append((key, bindings[key]) if key in bindings else (key, None))
                result.append(("ARG", tuple(values)))
            else:
                result.append(shape(command))
    return result


def actual(text: str) -> list[tuple]:
    result = []
    for command in commands(text):
        if command.cmd == "FROM":
            value = tuple(command.value[:-2]) + (command.value[-2].lower(), command.value[-1])
            result.append(("FROM", tuple(command.flags), value, False, ()))
        elif command.cmd == "ARG":
            result.append(("ARG", None, tuple(command.value)))
        else:
            result.append(shape(command))
    return result


def matches(want: list[tuple], got: list[tuple]) -> str | None:
    if len(want) != len(got):
        return f"{len(got)} instructions composed, {len(want)} in the parts"
    for index, (w, g) in enumerate(zip(want, got)):
        if w[0] == "ARG":
            names = [word.split("=", 1)[0] for word in g[2]]
            if g[0] != "ARG" or names != [key for key, _ in w[1]]:
                return f"instruction {index}: {g} is not ARG {w[1]}"
            for (key, bound), word in zip(w[1], g[2]):
                if bound is not None and unquote(word.split("=", 1)[1]) != bound:
                    return f"instruction {index}: {key} is {word!r}, bound to {bound!r}"
        elif w != g:
            return f"instruction {index}: composed {g!r}, parts say {w!r}"
    return None


def main() -> int:
    stagebuild = str(Path(sys.argv[1]).resolve())
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261201
    for number in range(cases):
        rng = random.Random(seed * 1000 + number)
        root = Path(tempfile.mkdtemp(prefix=f"compose-property-{number}-"))
        parts = case(rng, root)
        run = subprocess.run(
            [stagebuild, "compose", "Stagefile"], cwd=root, capture_output=True, timeout=60
        )
        if run.returncode != 0:
            print(f"case {number} ({root}): compose exited {run.returncode}: {run.stderr.decode()}")
            return 1
        problem = matches(expected(root, parts), actual(run.stdout.decode()))
        if problem:
            print(f"case {number} ({root}): {problem}")
            return 1
        subprocess.run(["rm", "-rf", str(root)], check=True)
    print(f"compose property: {cases} generated projects compose to what their parts mean")
    return 0


if __name__ == "__main__":
    sys.exit(main())

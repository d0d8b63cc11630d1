#!/usr/bin/env python3
"""Differential test of the Dockerfile parser against BuildKit's, and of compose's pass-through.

Generates random Dockerfiles (seeded) that reach the grammar's corners: quoting, escapes, both
escape characters, continuations with comments and blank lines inside, heredocs of every form,
JSON and shell forms, parser directives, every instruction and its flags, ONBUILD, CR/LF/CRLF
mixes, a BOM, no final newline, trailing white space, tabs and Unicode; and mutates the files
of the fixed corpus (`Tests/DockerfileSyntaxTests/Corpus/accepted`) line by line. Each input is
written as `NNNN.Dockerfile` with BuildKit's answer beside it as `NNNN.buildkit.json`, in the
golden format of `buildkit_dump.py` (its functions, imported). The Swift test
`BuildKitCorpusTests.agreesWithBuildKitOnGeneratedFile` reads that folder from
`STAGEBUILD_DIFFERENTIAL_DOCKERFILES`.

With `--stagebuild BIN`, every file BuildKit accepts is also given to `BIN compose` as a
Stagefile (with an empty `--stages` folder) and BuildKit's parse of the output must be the
input's, instruction by instruction: keyword, sub-command, JSON form, flags, values, heredocs,
`original` and how many lines each instruction spans; only the line numbers move (compose
writes its header and a provenance comment above the file's lines, and drops the directives
and leading blank lines, writing the directives again in its header). A refusal compose
documents (see `REFUSALS`) is counted by reason; any other refusal, or a changed parse, is a
disagreement: its input is kept in the folder and named, with the composed output in
`DIR/disagreements/`.

Usage:
  dockerfile_differential.py [--seed S] [--count N] [--out DIR] [--stagebuild BIN]
                             [--minutes M] [--start I]
    --seed S        the run's seed (default: random; always printed)
    --count N       files per round (default 300)
    --start I       number of the first file (replays file I of seed S with --count 1)
    --out DIR       the folder to write (emptied first; default a new temporary folder)
    --stagebuild B  also check compose's pass-through with the stagebuild binary B
    --minutes M     long mode: rounds of N files (the seed's next N each time) until M
                    minutes pass; the folder keeps every round, and stops at one that disagrees
Exit status: 0 all agree, 1 a disagreement (named on stdout), 64 usage.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import dockerfile

sys.path.insert(0, str(Path(__file__).resolve().parent))
import buildkit_dump  # noqa: E402  (beside this file; its golden format is the one we write)

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Tests/DockerfileSyntaxTests/Corpus/accepted"
DEFAULT_COUNT = 300
COMPOSE_TIMEOUT = 60

KEYWORDS = ["FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
            "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"]
KNOWN = {k.lower() for k in KEYWORDS}


def _cmds(golden: dict) -> list[str]:
    return [(e["cmd"] or "").lower() for e in golden["instructions"]]


# The Dockerfile reference's flags that take a value (BuildKit's builder refuses them bare).
VALUE_FLAGS = {"platform", "from", "mount", "network", "security", "chown", "chmod", "checksum", "exclude", "interval",
               "timeout", "start-period", "start-interval", "retries"}


def _written(golden: dict) -> str:
    """Each instruction as BuildKit joined it (its `original`: continuations joined, and the
    lines a continuation skips, blank, white space or comment, left out), one per line."""
    return "\n".join(e.get("original") or "" for e in golden["instructions"])


def _from_flag_holds(golden: dict, text: str) -> bool:
    """True when a COPY/ADD --from or a RUN mount's from= holds the text, as BuildKit read it."""
    for e in golden["instructions"]:
        for flag in e.get("flags") or []:
            if flag.startswith("--from=") and text in flag:
                return True
            if flag.startswith("--mount=") and any(f.startswith("from=") and text in f for f in flag[8:].split(",")):
                return True
    return False


def _before_from(golden: dict) -> bool:
    for cmd in _cmds(golden):
        if cmd == "from":
            return False
        if cmd != "arg":
            return True
    return False


def _duplicate_alias(golden: dict) -> bool:
    # compose reads the word after AS as the name even when more follow (BuildKit's build
    # then refuses the FROM for its argument count).
    names = [e["value"][2].lower() for e in golden["instructions"]
             if (e["cmd"] or "").lower() == "from" and len(e["value"]) >= 3 and e["value"][1].lower() == "as"]
    return len(names) != len(set(names))


# Refusals compose documents, by the start of its message (after `Stagefile:L:C: error: `),
# each with what BuildKit's parse of the file (golden, path) must show for the refusal to be on
# purpose. Each is a rule of Stagefiles or of composed output, not a reading of the syntax.
REFUSALS: list[tuple[str, str, Callable[[dict, Path], bool]]] = [
    (r"unknown instruction ", "unknown instruction (compose and lint SB017 refuse misspelt keywords)",
     lambda g, p: any(c not in KNOWN for c in _cmds(g))),
    (r"\S+ comes before any FROM; only ARG may", "an instruction other than ARG before the first FROM",
     lambda g, p: _before_from(g)),
    (r"the Stagefile has no FROM", "no FROM", lambda g, p: "from" not in _cmds(g)),
    (r"ONBUILD cannot trigger ", "ONBUILD of FROM, ONBUILD or USE",
     lambda g, p: any((e["subCmd"] or "").lower() in ("from", "onbuild", "use") for e in g["instructions"])),
    (r"build stage name '.*' is used twice", "a build-stage name used twice", lambda g, p: _duplicate_alias(g)),
    (r"(COPY|ADD|RUN) (--from|--mount from)=.* names its stage through a variable",
     "a --from or mount from= naming its stage through a variable (compose and lint SB041)",
     lambda g, p: _from_flag_holds(g, "$")),
    (r"\S+ --\S+ has no value", "a builder flag without =VALUE (compose and lint SB042; BuildKit's builder refuses it)",
     lambda g, p: any("=" not in f and f.lstrip("-").lower() in VALUE_FLAGS
                      for e in g["instructions"] for f in e.get("flags") or [])),
    # The flag word runs to the line's end when its quote is never closed, as BuildKit reads it.
    (r"(COPY|ADD|RUN) --.+ is quoted", "a quoted COPY --from or mount from= (compose and lint SB041)",
     lambda g, p: _from_flag_holds(g, '"') or _from_flag_holds(g, "'")
     or re.search(r"(--from=|from=)[^\s]*[\"']", _written(g)) is not None),
    (r"USE needs a template name|USE takes no flags|FROM stage: takes no flags|expected KEY=VALUE|"
     r"no stage template|stage template '", "a template reference (USE or FROM stage:)",
     lambda g, p: any(c == "use" for c in _cmds(g))
     or any(e["value"][:1] and e["value"][0].lower().startswith("stage:") for e in g["instructions"]
            if (e["cmd"] or "").lower() == "from")),
]

WORDS = [
    "alpine", "debian:bookworm", "/app", "a b", "x=1", "$HOME", "${VAR:-d}", "${X}y", "é", "日本",
    "😀", "a\u00a0b", "--", "-x", "#", "#c", "=", "a=b=c", "''", '""', "'a b'", '"a b"', '"a\\"b"',
    "'it''s'", "a\\ b", "\\$x", "c:\\\\path", "`cmd`", "*", "?.txt", "[a]", "{}", ",", ";", "&&",
    "|", ">out", "2>&1", "a\tb", "\u200b", "\u2028", "ß", "'", '"', "\\", "\\\\", "x\\", "[", "]",
    "\u3000", "\u2000", "\u202f", "\u1680", "\u0085", "\u00a0", "a\u2028b", "\u2029", "\u205f", "†",
]
SHELL_WORDS = ["echo", "apt-get", "install", "-y", "curl", "&&", "||", "ls", "-la", "sh", "-c", "true"]
JSON_ARRAYS = [
    '["echo", "hi"]', '[ "a" , "b" ]', '[]', '[ ]', '["a"] trailing', '["a"]["b"]', '["\\u00e9"]',
    '["\\ud83d\\ude00"]', '["a\\"b"]', '["a",]', '["a" "b"]', "['a']", '["a"', '["tab\\tnl\\n"]',
    '["é"]', '["a\\\\"]', '[ "x" ] ', '["\\/"]', '["\\x"]', '["a"]  # c',
    # Go's decoder: a lone surrogate becomes U+FFFD; only ASCII white space between tokens.
    '["\\ud800"]', '["\\udc00x"]', '["\\ud83d"]', '[\u00a0"a"]', '["a"\u3000]', '[\f"a"]', '[\t"a"\r]',
    '\u00a0["a"]', '["\\u00"]', '["a\tb"]', '["\u0085"]',
]
# Arrays of other than strings: BuildKit refuses the file, so they are rare.
BAD_JSON_ARRAYS = ['[1]', '["a", 1]', '[null]', '["a", ["b"]]', '[true]']
FLAGS = {
    "RUN": ["--mount=type=cache,target=/root/.cache", "--mount=type=bind,from=build,source=/a,target=/b",
            '--mount="type=secret,id=x"', "--mount=type=ssh", "--network=none", "--network=host",
            "--security=insecure", "--mount=type=tmpfs,target=/t"],
    "COPY": ["--from=build", "--chown=1000:1000", "--chmod=0755", "--link", "--link=false", "--parents",
             "--exclude=*.md", '--chown="a b"', "--from="],
    "ADD": ["--checksum=sha256:abc", "--keep-git-dir=true", "--chown=root", "--chmod=644", "--link"],
    "FROM": ["--platform=linux/amd64", "--platform=$BUILDPLATFORM", "--platform="],
    "HEALTHCHECK": ["--interval=30s", "--timeout=3s", "--start-period=5s", "--start-interval=1s",
                    "--retries=3"],
    "ONBUILD": ["--x=1"],
    "*": ["--unknown", "--q=\"a b\"", "--e=''", "--", "--a=b=c", "--\u00e9=1", "-x"],
}
# Between a keyword and its arguments: \v and \f split there too, NBSP and U+3000 do not.
ODD_SPACES = ["\v", "\f", " \v", "\u00a0", "\u3000", "\r "]


class Gen:
    """One file's generator: its random stream, escape character and line ends."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.escape = "\\"
        style = rng.random()
        # Mostly one line end per file; some files mix them line by line.
        self.ends = (["\n"] if style < 0.55 else ["\r\n"] if style < 0.75
                     else ["\n", "\r\n", "\r\r\n", "\n", "\r\n"])

    def end(self) -> str:
        return self.rng.choice(self.ends)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def word(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            return self.rng.choice(SHELL_WORDS)
        if r < 0.9:
            return self.rng.choice(WORDS)
        return "".join(self.rng.choice("ab$\"'\\` =#{}é\t") for _ in range(self.rng.randrange(1, 6)))

    def words(self, low: int = 1, high: int = 5) -> str:
        parts = [self.word() for _ in range(self.rng.randrange(low, high + 1))]
        return " ".join(parts)

    def flags(self, keyword: str) -> str:
        if not self.chance(0.35):
            return ""
        pool = FLAGS.get(keyword, []) + (FLAGS["*"] if self.chance(0.3) else [])
        if not pool:
            pool = FLAGS["*"]
        return " ".join(self.rng.choice(pool) for _ in range(self.rng.randrange(1, 4))) + " "

    def space(self) -> str:
        if self.chance(0.03):
            return self.rng.choice(ODD_SPACES)
        return self.rng.choice([" ", " ", " ", "\t", "  ", " \t"])

    def keyword(self, name: str) -> str:
        r = self.rng.random()
        return name if r < 0.8 else name.lower() if r < 0.9 else name.capitalize()

    # -- heredocs -------------------------------------------------------------------------

    def heredoc_marker(self) -> tuple[str, str, bool, bool]:
        """(marker as written, terminator name, strips tabs, is a real heredoc)."""
        name = self.rng.choice(["EOF", "EOT", "END", "X", "eof", "E_1", "é"])
        fd = self.rng.choice(["", "", "", "3", "0", "10"])
        dash = "-" if self.chance(0.3) else ""
        r = self.rng.random()
        if r < 0.5:
            written = name
        elif r < 0.65:
            written = f'"{name}"'
        elif r < 0.8:
            written = f"'{name}'"
        elif r < 0.85:
            written = f"\\{name}"
        elif r < 0.9:
            written = f'{name[0]}"{name[1:]}"' if len(name) > 1 else name
        else:
            # Not a heredoc at all: BuildKit keeps it as text.
            return self.rng.choice(["<< EOF", "<<<EOF", "<<-", '<<""', "<<\"EOF'", '"<<EOF"']), "", False, False
        return f"{fd}<<{dash}{written}", name, bool(dash), True

    def heredoc_body(self, name: str, strips: bool) -> str:
        lines = []
        for _ in range(self.rng.randrange(0, 4)):
            r = self.rng.random()
            if r < 0.5:
                text = self.words(1, 4)
            elif r < 0.6:
                text = "\t" + self.words(1, 2)
            elif r < 0.7:
                text = "# not a comment " + self.word()
            elif r < 0.8:
                text = "echo a \\"
            elif r < 0.85:
                text = name + " "
            elif r < 0.9:
                text = " " + name
            else:
                text = ""
            # Body lines are raw: each keeps its own line end, CRLF included.
            lines.append(text + self.end())
        terminator = ("\t" * self.rng.randrange(1, 3) if strips and self.chance(0.6) else "") + name
        if self.chance(0.03):
            return "".join(lines)  # unterminated: BuildKit refuses the file
        return "".join(lines) + terminator

    # -- instructions ---------------------------------------------------------------------

    def args(self, keyword: str) -> str:
        rng = self.rng
        if keyword == "FROM":
            base = rng.choice(["alpine", "debian:bookworm-slim", "scratch", "$BASE", "a@sha256:0", "x/y:z"])
            alias = rng.choice(["", "", f" AS b{rng.randrange(4)}", f" as b{rng.randrange(4)}", " AS", " AS a b"])
            return base + alias
        if keyword in ("CMD", "ENTRYPOINT", "SHELL", "RUN") and self.chance(0.4):
            return rng.choice(BAD_JSON_ARRAYS if self.chance(0.05) else JSON_ARRAYS)
        if keyword == "HEALTHCHECK":
            sub = rng.choice(["CMD", "cmd", "NONE", "none", "X", ""])
            rest = rng.choice(JSON_ARRAYS) if self.chance(0.4) else self.words(0, 3)
            return f"{sub} {rest}".strip()
        if keyword in ("ENV", "LABEL"):
            if self.chance(0.3):
                return f"K{rng.randrange(9)} {self.words(0, 3)}"
            pairs = []
            for _ in range(rng.randrange(1, 4)):
                value = rng.choice(["v", '"two words"', "'single'", "a\\ b", '"unterminated', "", "$X",
                                    '"a\\"b"', "é", '"$A ${B}"', "x=y"])
                pairs.append(f"{rng.choice(['K', 'k.e-y', 'A_1', '', 'É'])}{rng.randrange(9)}={value}")
            return " ".join(pairs)
        if keyword == "ARG":
            return " ".join(rng.choice(["A", "B=1", "C=\"x y\"", "D=", "=e", "F='1'", "G=${A}"])
                            for _ in range(rng.randrange(1, 3)))
        if keyword == "ONBUILD":
            sub = rng.choice(["RUN", "COPY", "ADD", "ENV", "CMD", "LABEL", "WORKDIR", "run", "HEALTHCHECK",
                              "ONBUILD", "FROM", "USER", ""])
            if not sub:
                return ""
            if sub in ("ONBUILD", "FROM") and not self.chance(0.2):
                sub = "RUN"  # compose refuses these; keep them rare so most files compose
            return f"{self.flags(sub)}{sub} {self.args(sub.upper())}".rstrip()
        if keyword in ("COPY", "ADD"):
            if self.chance(0.25):
                return rng.choice(['["a", "b/"]', '["a b", "c"]', '["a"]', "[\"x\""])
            return " ".join(rng.choice(["a", "b/", "\"a b\"", "a\\ b", "*.txt", "http://x/y", "/dst/",
                                        "$SRC", "é"]) for _ in range(rng.randrange(1, 4)))
        if keyword in ("EXPOSE", "VOLUME"):
            if keyword == "VOLUME" and self.chance(0.3):
                return rng.choice(['["/a", "/b"]', '["/data"]', "[/x]"])
            return " ".join(rng.choice(["80", "443/tcp", "53/udp", "$P", "/data", "\"/a b\"", "8000-8010"])
                            for _ in range(rng.randrange(0, 3)))
        if keyword in ("USER", "WORKDIR", "STOPSIGNAL", "MAINTAINER"):
            return self.words(0, 3)
        return self.words(0, 5)

    def instruction(self, keyword: str) -> str:
        """One logical instruction, with its heredoc bodies after its first line."""
        flags = self.flags(keyword)
        body = self.args(keyword)
        heredocs: list[tuple[str, bool]] = []
        first_keyword = keyword
        if keyword == "ONBUILD":
            first_keyword = body.split(" ")[0].upper() if body else ""
        if first_keyword in ("RUN", "COPY", "ADD") and self.chance(0.35):
            markers = []
            for _ in range(self.rng.randrange(1, 4)):
                marker, name, strips, real = self.heredoc_marker()
                markers.append(marker)
                if real:
                    heredocs.append((name, strips))
            tail = " ".join(markers)
            if first_keyword == "RUN":
                # Random words before the markers may open a quote that hides them; rarely.
                words = body + " " if self.chance(0.1) and not body.startswith("[") else ""
                body = words + self.rng.choice([tail, tail + " && echo done", f"python3 {tail}", f"cat {tail} > /x"])
            else:
                body = f"{tail} /dst/"
            if keyword == "ONBUILD":
                body = f"{first_keyword} {body}"
        gap = self.space() if body or flags else ""
        text = f"{self.keyword(keyword)}{gap}{flags}{body}"
        if self.chance(0.1):
            text += self.rng.choice([" ", "\t", "  \t"])  # trailing white space
        line = self.continued(text) if self.chance(0.3) else text + self.end()
        for name, strips in heredocs:
            if not line.endswith(("\n", "\r")):
                line += self.end()
            line += self.heredoc_body(name, strips) + self.end()
        return line

    def continued(self, text: str) -> str:
        """The text split over physical lines at spaces, with comments and blanks between."""
        parts = text.split(" ")
        out = parts[0]
        for index, part in enumerate(parts[1:]):
            if not self.chance(0.4):
                out += " " + part
                continue
            # Nothing is inserted where lines join; after the keyword a space must stay.
            keep_space = " " if index == 0 or self.chance(0.5) else ""
            # After the escape only spaces and tabs keep the line going; \v or NBSP end it.
            tail = self.rng.choice([" \v", "\u00a0"]) if self.chance(0.03) else self.rng.choice(["", "", " ", "\t", "  "])
            out += keep_space + self.escape + tail + self.end()
            while self.chance(0.3):
                out += self.rng.choice(["# comment", "  # indented", "", "   ", "\t", self.escape,
                                        "\u00a0# nbsp", "\u3000", "\v", "\u00a0", "\f#"]) + self.end()
            out += self.rng.choice(["", "", "  ", "\t"]) + part
        if self.chance(0.05):
            # A continuation at the very end of the instruction: it swallows the next line.
            out += self.escape
        return out + self.end()

    # -- whole files ----------------------------------------------------------------------

    def directives(self) -> str:
        out = ""
        if self.chance(0.08):
            out += "#!/usr/bin/env docker" + self.end()
        for _ in range(self.rng.randrange(0, 3) if self.chance(0.4) else 0):
            r = self.rng.random()
            if r < 0.3:
                self.escape = "`"
                out += self.rng.choice(["# escape=`", "#escape=`", "# ESCAPE = ` ", "#  Escape=`", "  # escape=`",
                                        "#\tescape\t=\t`"]) + self.end()
            elif r < 0.4:
                out += self.rng.choice(["# escape=\\", "# escape = \\"]) + self.end()
            elif r < 0.6:
                out += self.rng.choice(["# syntax=docker/dockerfile:1", "#SYNTAX = docker/dockerfile:1.4",
                                        "# syntax=x/y "]) + self.end()
            elif r < 0.75:
                out += self.rng.choice(["# check=skip=all", "# check=error=true", "# foo=bar"]) + self.end()
            elif r < 0.85:
                out += self.rng.choice(["# escape=", "# escape=x", "# escape=``", "# syntax="]) + self.end()
            else:
                out += self.rng.choice(["", "# a comment", "   "]) + self.end()
        if "escape" in out.lower():
            # Whether it counts depends on what came before: ask BuildKit, so that most
            # continuations use the escape character in force (and some use the other one).
            try:
                probe = dockerfile.parse_string(out + "FROM a `\nRUN b\n")
                self.escape = "`" if len(probe) == 1 else "\\"
            except dockerfile.GoParseError:
                pass
        if self.chance(0.02):
            self.escape = "`" if self.escape == "\\" else "\\"
        return out

    def file(self) -> str:
        rng = self.rng
        if self.chance(0.01):
            # Nothing to build: BuildKit refuses a file with no instructions.
            return rng.choice(["", "\n", "# only a comment\n", "# escape=`\n", "  \t\r\n", "\ufeff"])
        text = "\ufeff" if self.chance(0.05) else ""
        text += self.directives()
        if self.chance(0.15):
            text += f"ARG {rng.choice(['BASE=alpine', 'V', 'A=1 B'])}" + self.end()
        if not self.chance(0.03):
            text += self.instruction("FROM")
        for _ in range(rng.randrange(1, 10)):
            r = rng.random()
            if r < 0.08:
                text += rng.choice(["# comment", "#", "  # indented", "#escape=`", "# syntax=x", "\u00a0# nbsp",
                                    "\v#", "\u3000"]) + self.end()
                continue
            if r < 0.14:
                text += rng.choice(["", " ", "\t", "   \t"]) + self.end()
                continue
            if r < 0.16:
                if self.chance(0.25):  # compose refuses a misspelt keyword, so rarely
                    text += rng.choice(["FORM alpine", "RUNN x", "\ufeffRUN x", "FROM\u00a0alpine", "COPPY a b",
                                        "MAINTANER x"]) + self.end()
                continue
            if r < 0.163:
                # A physical line of 65,536 bytes with its newline is the most BuildKit reads.
                size = rng.choice([65534, 65535, 65536])
                text += "RUN " + "x" * (size - 5) + "\n"
                continue
            keyword = rng.choice(KEYWORDS + ["RUN", "RUN", "COPY", "RUN", "ENV", "CMD"])
            text += self.instruction(keyword)
        if self.chance(0.1):
            text = text.rstrip("\r\n")  # no final newline
        return text


def mutate(rng: random.Random, text: str) -> str:
    """A corpus file changed a few times at line level (the text stays UTF-8)."""
    for _ in range(rng.randrange(1, 5)):
        lines = text.splitlines(keepends=True) or [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(11)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            lines.insert(i, rng.choice(["\n", "\r\n", "# c\n", "  \n", "\\\n", "EOF\n", "RUN x\n"]))
        elif op == 3:
            lines[i] = lines[i].replace("\r\n", "\n") if "\r\n" in lines[i] else lines[i].replace("\n", "\r\n")
        elif op == 4:
            body = lines[i].rstrip("\r\n")
            lines[i] = body + rng.choice(["\\", " \\", "\\ ", "`"]) + lines[i][len(body):]
        else:
            body = lines[i]
            at = rng.randrange(len(body) + 1)
            insert = rng.choice(['"', "'", "<<EOF", "<<-EOF", "\\", " ", "\t", "[", "]", "#", "$", "\r", "é",
                                 "--x ", "\n"])
            lines[i] = body[:at] + insert + body[at:]
        text = "".join(lines)
    if rng.random() < 0.1:
        text = text.replace("\n", "\r\n") if "\r\n" not in text else text.replace("\r\n", "\n")
    return text


def generate_one(seed: int, number: int, corpus: list[Path]) -> str:
    rng = random.Random(f"{seed}:{number}")
    if corpus and rng.random() < 0.3:
        source = rng.choice(corpus).read_bytes().decode("utf-8")
        return mutate(rng, source)
    return Gen(rng).file()


def generate(seed: int, start: int, count: int, out: Path) -> list[Path]:
    """Writes the files and their goldens; drops those BuildKit's answer cannot be read for."""
    corpus = sorted(CORPUS.glob("*" + buildkit_dump.SUFFIX))
    files = []
    for number in range(start, start + count):
        path = out / f"{number:04d}{buildkit_dump.SUFFIX}"
        path.write_bytes(generate_one(seed, number, corpus).encode("utf-8"))
        try:
            golden = buildkit_dump.canonical(path)
        except UnicodeDecodeError:
            # BuildKit cut a character in half (HEALTHCHECK's type word, a flag ending at a
            # byte 0x85 or 0xA0): its answer is no UTF-8 text, so there is nothing to compare.
            path.unlink()
            continue
        buildkit_dump.write_text(buildkit_dump.golden_path(path), golden)
        files.append(path)
    if len(files) < count:
        print(f"{count - len(files)} files dropped: BuildKit's answer is not UTF-8")
    return files


# -- compose pass-through -----------------------------------------------------------------


def comparable(entry: dict) -> dict:
    """An instruction as compose must keep it: everything but where it starts."""
    kept = {k: v for k, v in entry.items() if k not in ("startLine", "endLine")}
    kept["lines"] = entry["endLine"] - entry["startLine"]
    return kept


def refusal_reason(stderr: str, golden: dict, path: Path) -> str | None:
    """The documented reason for a refusal that BuildKit's parse bears out, else None."""
    message = stderr.split(": error: ", 1)[-1]
    for pattern, reason, holds in REFUSALS:
        if re.match(pattern, message):
            return reason if holds(golden, path) else None
    return None


def check_compose(stagebuild: str, path: Path, stages: Path) -> tuple[str, str, str]:
    """('agree' | 'refused' | 'disagree', reason, composed text)."""
    golden = json.loads(buildkit_dump.golden_path(path).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="differential-compose-") as work:
        stagefile = Path(work) / "Stagefile"
        shutil.copyfile(path, stagefile)
        run = subprocess.run([stagebuild, "compose", "Stagefile", "--stages", str(stages)], cwd=work,
                             capture_output=True, timeout=COMPOSE_TIMEOUT)
        if run.returncode != 0:
            stderr = run.stderr.decode("utf-8", "replace")
            reason = refusal_reason(stderr, golden, path)
            if run.returncode == 65 and reason:
                return "refused", reason, ""
            return "disagree", f"compose exited {run.returncode}: {stderr.strip()}", ""
        composed = Path(work) / "Dockerfile.composed"
        composed.write_bytes(run.stdout)
        back = buildkit_dump.parse(composed)
    text = run.stdout.decode("utf-8", "replace")
    if back.get("rejected"):
        return "disagree", f"BuildKit rejects the composed file: {back['message']}", text
    want = [comparable(e) for e in golden["instructions"]]
    got = [comparable(e) for e in back["instructions"]]
    if len(want) != len(got):
        return "disagree", f"{len(got)} instructions composed, {len(want)} in the Stagefile", text
    for index, (w, g) in enumerate(zip(want, got)):
        if w != g:
            fields = sorted(k for k in w if w[k] != g.get(k))
            detail = "; ".join(f"{k}: {w[k]!r} became {g.get(k)!r}" for k in fields)
            return "disagree", f"instruction {index + 1} ({w['cmd']}): {detail}", text
    return "agree", "", text


def check_round(stagebuild: str, out: Path, files: list[Path]) -> bool:
    accepted = [f for f in files if "instructions" in json.loads(buildkit_dump.golden_path(f).read_text("utf-8"))]
    print(f"BuildKit accepts {len(accepted)} of {len(files)} files, rejects {len(files) - len(accepted)}")
    stages = out / "empty-stages"
    stages.mkdir(exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda f: (f, *check_compose(stagebuild, f, stages)), accepted))
    agree = sum(1 for r in results if r[1] == "agree")
    refused: dict[str, int] = {}
    disagreements = [r for r in results if r[1] == "disagree"]
    for _, outcome, reason, _ in results:
        if outcome == "refused":
            refused[reason] = refused.get(reason, 0) + 1
    print(f"compose pass-through: {agree} agree, {sum(refused.values())} refused as documented, "
          f"{len(disagreements)} disagree")
    for reason, count in sorted(refused.items(), key=lambda kv: -kv[1]):
        print(f"  refused {count:5d}: {reason}")
    if disagreements:
        kept = out / "disagreements"
        kept.mkdir(exist_ok=True)
        for shown, (path, _, reason, text) in enumerate(disagreements):
            (kept / (path.name[: -len(buildkit_dump.SUFFIX)] + ".composed")).write_text(text, "utf-8")
            print(f"DISAGREE {path}: {reason}")
            if shown < 5:
                # The bytes too, so that a CI log holds the case after its folder is gone.
                print(f"  input bytes: {path.read_bytes()!r}")
        print(f"composed outputs are in {kept}")
    return not disagreements


def run_round(seed: int, start: int, count: int, out: Path, stagebuild: str | None) -> bool:
    """Generates files start..start+count-1 of the seed into `out` and checks them."""
    out.mkdir(parents=True, exist_ok=True)
    print(f"dockerfile_differential: seed {seed}, files {start}..{start + count - 1}, folder {out}", flush=True)
    files = generate(seed, start, count, out)
    return check_round(stagebuild, out, files) if stagebuild else True


def main(argv: list[str]) -> int:
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--stagebuild", default=None)
    parser.add_argument("--minutes", type=float, default=None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 64
    if args.count < 1 or args.start < 0 or (args.minutes is not None and args.minutes <= 0):
        sys.stderr.write("dockerfile_differential.py: --count and --minutes must be positive, --start not negative\n")
        return 64
    buildkit_dump.warn_on_other_version()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    out = args.out or Path(tempfile.mkdtemp(prefix="dockerfile-differential-"))
    if out.exists():
        shutil.rmtree(out)
    stagebuild = str(Path(args.stagebuild).resolve()) if args.stagebuild else None
    if args.minutes is None:
        return 0 if run_round(seed, args.start, args.count, out, stagebuild) else 1
    # Rounds continue the seed's numbering in one folder, so file N replays with
    # --seed S --start N --count 1 and the Swift test reads every round.
    deadline = time.monotonic() + args.minutes * 60
    start = args.start
    while True:
        if not run_round(seed, start, args.count, out, stagebuild):
            print(f"stopped: replay a file N above with --seed {seed} --start N --count 1")
            return 1
        start += args.count
        if time.monotonic() >= deadline:
            break
    print(f"files {args.start}..{start - 1} of seed {seed} agree; they are in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

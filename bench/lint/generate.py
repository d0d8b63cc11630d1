#!/usr/bin/env python3
"""Writes a synthetic Dockerfile of exactly N instructions for bench/lint.

Usage: generate.py FILE N [SHAPE]
SHAPE "mixed" (default) cycles through what the lint rules read: global ARGs, four named
build stages (each a quarter of the file, as real files have few and long stages), FROM
${ARG}, ENV and ARG (secret-looking names among them), COPY --from an image or a stage, RUN
with apt-get, pip, npm, git clone and curl | sh, heredocs, shell-form CMD, USER, and ignore
pragmas above some instructions; every other instruction is `RUN echo N`, the user's report.
A blank line follows each heredoc (hadolint needs one). SHAPE "echo" is one FROM, one USER
and `RUN echo N` lines only.
"""
import sys

path, count = sys.argv[1], int(sys.argv[2])
shape = sys.argv[3] if len(sys.argv) > 3 else "mixed"
digest = "sha256:" + "ab" * 32
lines = []
emitted = 0


def emit(text, instructions=1):
    global emitted
    lines.append(text)
    emitted += instructions


if shape == "echo":
    emit(f"FROM debian:bookworm-slim@{digest}")
    emit("USER app")
    while emitted < count:
        emit(f"RUN echo {emitted}")
else:
    emit("ARG BASE=debian:bookworm-slim")
    emit(f"ARG DIGEST={digest}")
    stage_size = max(50, count // 4)

    def copy_from(i):
        stage = (i - 2) // stage_size
        source = f"stage{stage - 1}" if stage > 0 else f"busybox:1.36@{digest}"
        return f"COPY --from={source} /out /in{i}"

    cycle = [
        lambda i: f"ENV APP_HOME_{i}=/srv/app{i} MAX_TOKENS_{i}=512",
        lambda i: "ARG TOOL_COMMIT=1f8b943c7656eba8b5f8169fb04a61734c9e8f72",
        lambda i: f"RUN apt-get update && apt-get install -y --no-install-recommends curl=7.88.1-10+deb12u5 "
        f"&& rm -rf /var/lib/apt/lists/*",
        lambda i: f"# stagebuild ignore=SB007 bench input {i}\nRUN pip install flask",
        lambda i: f"RUN git clone --depth 1 --branch v1.{i} https://github.com/example/tool.git /src/t{i} "
        f"&& git -C /src/t{i} checkout ${{TOOL_COMMIT}}",
        copy_from,
        lambda i: f"RUN <<EOF\nset -eux\nnpm ci --omit=dev\ncurl -fsSL https://get.example.com/{i}.sh | sh\nEOF\n",
        lambda i: f"ENV API_TOKEN_{i}=x",
        lambda i: "USER app",
        lambda i: f"CMD node server{i}.js",
    ]
    index = 0
    while emitted < count:
        if (emitted - 2) % stage_size == 0:
            emit(f"FROM ${{BASE}}@${{DIGEST}} AS stage{(emitted - 2) // stage_size}")
        elif index % 2 == 0:
            emit(f"RUN echo {emitted}")
            index += 1
        else:
            emit(cycle[(index // 2) % len(cycle)](emitted))
            index += 1
with open(path, "w") as out:
    out.write("\n".join(lines) + "\n")

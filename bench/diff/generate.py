#!/usr/bin/env python3
"""bench/diff/generate.py ROOT FILES: a git repository for `stagebuild diff` at scale.

A catalog of 50 stage templates (a base and 49 layers, each with parameters, a RUN, a COPY of
one folder of the build context and configuration steps), a Stagefile of 20 images (build
stages), each placing a few layers and copying its own folder, and a build context of FILES
files spread over 20 folders. Committed once; then the working tree gets the changes a pull
request makes: one parameter, one template line and one context file.
"""
import os
import subprocess
import sys

root, files = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{root}/Stages", exist_ok=True)
with open(f"{root}/Stages/base.Dockerfile", "w") as out:
    out.write("# summary: the base\n# param RELEASE: the release\nARG RELEASE=bookworm\nFROM debian:${RELEASE}-slim\n")
for n in range(1, 50):
    with open(f"{root}/Stages/layer{n}.Dockerfile", "w") as out:
        out.write(
            f"# summary: layer {n}\n# param PORT{n}: a port\n# param DIR{n}: a folder of the context\n"
            f"ARG PORT{n}={3000 + n}\nARG DIR{n}=src/part{n % 20}/\n"
            f"RUN echo layer {n} > /layer{n}\nCOPY ${{DIR{n}}} /srv/layer{n}/\n"
            f"ENV PORT{n}=${{PORT{n}}}\nLABEL layer{n}=yes\nEXPOSE ${{PORT{n}}}\n"
        )
with open(f"{root}/Stagefile", "w") as out:
    for image in range(20):
        out.write(f"FROM stage:base AS image{image}\n")
        for k in range(3):
            layer = (image * 3 + k) % 49 + 1
            out.write(f"USE layer{layer} DIR{layer}=src/part{image}/\n")
        out.write(f"COPY src/part{image}/ /app/\nRUN echo image {image}\n\n")
for index in range(files):
    folder = f"{root}/src/part{index % 20}/d{index % 7}"
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/f{index}.txt", "w") as out:
        out.write(f"file {index}\n" * 40)
with open(f"{root}/.dockerignore", "w") as out:
    out.write("**/*.tmp\n")

env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
           GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid")
subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
subprocess.run(["git", "commit", "-q", "-m", "base"], cwd=root, check=True, env=env)

# The pull request: a parameter, a template line, a context file.
with open(f"{root}/Stagefile") as f:
    text = f.read()
with open(f"{root}/Stagefile", "w") as f:
    f.write(text.replace("USE layer1 DIR1=src/part0/", "USE layer1 DIR1=src/part0/ PORT1=4001", 1))
with open(f"{root}/Stages/layer7.Dockerfile") as f:
    text = f.read()
with open(f"{root}/Stages/layer7.Dockerfile", "w") as f:
    f.write(text.replace("echo layer 7", "echo layer seven"))
with open(f"{root}/src/part5/d5/f5.txt", "a") as f:
    f.write("changed\n")

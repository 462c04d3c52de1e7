"""Every code excerpt in the lesson READMEs is the code as it is: each ```cpp block (split at lines
that are only `...`) is a run of consecutive lines of some source file under lessons/, common/ or
tests/ (its indentation may be shifted as a whole), and each line a ```diff block adds or keeps
(`+` or ` `) stands in some source file; the course README's table of a lesson's files gives each
file's true line count. Prints every excerpt that is not, and exits 1 if any.
    python3 tests/docs/check_readme_code.py REPO_ROOT"""
import glob
import os
import re
import sys

root = sys.argv[1]
sources = {}
for pattern in ("lessons/**/*", "common/**/*", "tests/**/*"):
    for path in glob.glob(os.path.join(root, pattern), recursive=True):
        if os.path.isfile(path) and path.endswith((".cuh", ".cu", ".h", ".cpp")):
            sources[path] = open(path, encoding="utf-8").read().split("\n")


def indent(line):
    return len(line) - len(line.lstrip())


def found(block):
    for lines in sources.values():
        for i in range(len(lines) - len(block) + 1):
            shift = None
            for j, want in enumerate(block):
                have = lines[i + j]
                if want.strip() != have.strip():
                    break
                if want.strip() and not want.startswith("#"):
                    d = indent(have) - indent(want)
                    if shift is None:
                        shift = d
                    elif d != shift:
                        break
            else:
                return True
    return False


all_lines = {line.strip() for lines in sources.values() for line in lines}
bad = 0
# The course's README (lessons/README.md), "Reading a lesson", gives each file's line count:
# `| [name](path) | N |`, the path relative to that README.
course = os.path.join(root, "lessons", "README.md")
for m in re.finditer(r"^\| \[[^\]]+\]\(([^)]+)\) \| (\d+) \|", open(course, encoding="utf-8").read(), re.M):
    path = os.path.join(os.path.dirname(course), m.group(1))
    have = len(open(path, encoding="utf-8").read().rstrip("\n").split("\n")) if os.path.isfile(path) else None
    if have != int(m.group(2)):
        print(f"lessons/README.md: {m.group(1)} has {have} lines, the table says {m.group(2)}")
        bad += 1
for readme in sorted(glob.glob(os.path.join(root, "lessons/*/README.md"))):
    text = open(readme, encoding="utf-8").read()
    for m in re.finditer(r"```(cpp|diff)\n(.*?)```", text, re.S):
        body = m.group(2).rstrip("\n").split("\n")
        where = f"{os.path.relpath(readme, root)}:{text[:m.start()].count(chr(10)) + 1}"
        if m.group(1) == "cpp":
            part = []
            for line in body + ["..."]:
                if line.strip() == "...":
                    if part and not found(part):
                        print(f"{where}: not in any source file: {part[0].strip()}")
                        bad += 1
                    part = []
                else:
                    part.append(line)
        else:
            for line in body:
                if line[:1] in "+ " and line[1:].strip() and not line.startswith("+++") \
                        and line[1:].strip() not in all_lines:
                    print(f"{where}: diff line not in any source file: {line[1:].strip()}")
                    bad += 1
print(f"{bad} excerpt(s) differ from the code" if bad else "every README excerpt is the code as it is")
sys.exit(1 if bad else 0)

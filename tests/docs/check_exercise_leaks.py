"""No README, EXERCISE.md, hint but the last, or comment prints the code a graded exercise asks for.

The code an exercise asks for is what its solution has where the exercise has a TODO(student) hunk
(tests/grading/exercise_matches_solution.sh): the solution's lines of those hunks. A line of it is
the exercise's own when no earlier lesson's kernel and nothing under common/ already has it (a
`__syncthreads();` or lesson 03's loop in lesson 05 gives nothing away), nor the exercise file itself
outside its TODO hunks (lesson 14's first `cluster.sync();`). Each such line is looked for,
comments and spacing aside, in every README.md and EXERCISE.md, in each of the exercise's hints but
the last (exercise/HINTS.md) and in the comments of every source file. Prints each line found, with
where, and exits 1 if any.

WAITING: the exercises whose lesson README (or a later one's diff) still prints the code they ask
for, because the README teaches with the kernel itself: each is to become a variation the README does
not show (issue 24: lesson 01's bitmask alone, lesson 03 for a block that is not a power of two,
lesson 05 with shuffles only in the last warp, ...). For them the READMEs and EXERCISE.md files are
not searched yet; their hints and every comment are. Take a lesson off the list when its exercise
is redesigned.
    python3 tests/docs/check_exercise_leaks.py REPO_ROOT"""
import glob
import os
import re
import subprocess
import sys

root = sys.argv[1]
SOURCES = (".cuh", ".cu", ".h", ".cpp")


def norm(line):
    line = re.sub(r"//.*", "", line)
    return re.sub(r"\s+", " ", line).strip()


def asked_lines(exercise):
    """The solution's lines of the exercise's TODO(student) hunks."""
    solution = os.path.join(os.path.dirname(os.path.dirname(exercise)), os.path.basename(exercise))
    diff = subprocess.run(["diff", solution, exercise], capture_output=True, text=True).stdout
    hunks, hunk = [], None
    for line in diff.split("\n"):
        if re.match(r"^\d", line):
            hunk = {"<": [], ">": []}
            hunks.append(hunk)
        elif line[:2] in ("< ", "> "):
            hunk[line[0]].append(line[2:])
    asked = []
    for h in hunks:
        if any("TODO(student)" in x for x in h[">"]):
            asked += [norm(x) for x in h["<"]]
    return [x for x in asked if len(x) >= 12]


def lesson_number(path):
    m = re.search(r"lessons/(\d\d)_", path)
    return int(m.group(1)) if m else None


def code_lines(path):
    return {norm(l) for l in open(path, encoding="utf-8").read().split("\n")}


def doc_lines(text):
    """A document's lines as code: a diff's +/- marks and a comment's // taken off."""
    out = set()
    for line in text.split("\n"):
        line = re.sub(r"^\s*[-+>] ?", "", line)
        out.add(norm(line))
        m = re.match(r"^\s*//+ ?(.*)$", line)
        if m:
            out.add(norm(m.group(1)))
    return out


def comment_lines(path):
    """The text of a source file's comments, line by line, as code."""
    out = set()
    for line in open(path, encoding="utf-8").read().split("\n"):
        m = re.search(r"//+ ?(.*)$", line)
        if m:
            out.add(norm(m.group(1)))
    return out


WAITING = set()

lessons = sorted(glob.glob(os.path.join(root, "lessons", "[0-9][0-9]_*")))
kernels = {}  # lesson number -> lines of its kernel sources (not its exercise)
for d in lessons:
    n = lesson_number(d + "/")
    lines = set()
    for f in glob.glob(os.path.join(d, "*")):
        if f.endswith(SOURCES) and os.path.isfile(f):
            lines |= code_lines(f)
    kernels[n] = lines
common = set()
for f in glob.glob(os.path.join(root, "common", "**", "*"), recursive=True):
    if f.endswith(SOURCES) and os.path.isfile(f):
        common |= code_lines(f)

docs = {}
for pattern in ("README.md", "lessons/*/README.md", "lessons/*/EXERCISE.md", "lessons/*.md"):
    for f in glob.glob(os.path.join(root, pattern)):
        docs[os.path.relpath(f, root)] = doc_lines(open(f, encoding="utf-8").read())
for pattern in ("lessons/**/*", "common/**/*", "tests/**/*", "viewer/**/*"):
    for f in glob.glob(os.path.join(root, pattern), recursive=True):
        if f.endswith(SOURCES) and os.path.isfile(f) and "/submissions/" not in f:
            docs[os.path.relpath(f, root) + " (comments)"] = comment_lines(f)

found = 0
for exercise in sorted(glob.glob(os.path.join(root, "lessons", "*", "exercise", "*"))):
    if exercise.endswith((".md", ".txt")):
        continue
    n = lesson_number(exercise)
    known = set(common)
    for m, lines in kernels.items():
        if m < n:
            known |= lines
    given = code_lines(exercise)  # what the exercise already hands the student, outside its TODOs
    own = [x for x in asked_lines(exercise) if x not in known and x not in given]
    hints_path = os.path.join(os.path.dirname(exercise), "HINTS.md")
    hints = re.split(r"^## Hint.*$", open(hints_path, encoding="utf-8").read(), flags=re.M)[1:]
    where = {k: v for k, v in docs.items() if not (n in WAITING and k.endswith(".md"))}
    for k, h in enumerate(hints[:-1]):
        where[os.path.relpath(hints_path, root) + f" hint {k + 1}"] = doc_lines(h)
    for name, lines in sorted(where.items()):
        hit = [x for x in own if x in lines]
        if hit:
            found += 1
            print(f"{os.path.relpath(exercise, root)}: {name} prints {len(hit)} of its {len(own)} "
                  f"lines, e.g. '{hit[0]}'")
print(f"{found} places print code an exercise asks for "
      f"(the READMEs not yet searched for lessons {sorted(WAITING)}: see WAITING)")
sys.exit(1 if found else 0)

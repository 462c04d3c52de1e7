"""The course is listed in one order everywhere a student looks: the folders are numbered in the
order the course is climbed, so the ladder's order in common/host/course.cpp (what `reducelab
ladder` runs) is its folders' order, and that is the order of the ladder table on the front page
and in lessons/README.md; every rung and every lesson of those tables has its folder; every lesson's
README and EXERCISE.md carry their folder's number in their title; every lesson folder a Markdown
file names (`NN_slug`) exists under that number, and every "lesson NN" it names has a folder.
Prints each disagreement and exits 1 if any.
    python3 tests/docs/check_course_order.py REPO_ROOT"""
import glob
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1])
folders = {int(os.path.basename(p)[:2]): os.path.basename(p)
           for p in glob.glob(os.path.join(root, "lessons", "[0-9][0-9]_*")) if os.path.isdir(p)}
bad = []

course_cpp = open(os.path.join(root, "common/host/course.cpp"), encoding="utf-8").read()
m = re.search(r"in_order<([\d, ]+)>\(\)", course_cpp)
ladder = [int(x) for x in m.group(1).split(",")] if m else []
if not ladder:
    bad.append("common/host/course.cpp: no in_order<...>() list of the ladder's lessons")
if ladder != sorted(ladder):
    bad.append(f"common/host/course.cpp: the ladder climbs {ladder}, not in its folders' order")
for lesson in ladder:
    if lesson not in folders:
        bad.append(f"common/host/course.cpp: lesson {lesson:02d} is in the ladder but has no folder")


def table_lessons(rel, heading):
    """The lesson numbers of the first table after `heading`, in order."""
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    at = text.find(heading)
    if at < 0:
        bad.append(f"{rel}: no heading {heading!r}")
        return []
    rows = []
    for line in text[at:].split("\n")[1:]:
        if rows and not line.startswith("|"):
            break
        cell = re.match(r"\| (\d\d) \|", line)
        if cell:
            rows.append(int(cell.group(1)))
    return rows


for rel, heading in (("README.md", "## The ladder"), ("lessons/README.md", "## The course")):
    listed = [n for n in table_lessons(rel, heading) if n in ladder or rel == "README.md"]
    if listed[:len(ladder)] != ladder:
        bad.append(f"{rel}: the ladder table lists {listed[:len(ladder)]}, the course climbs {ladder}")
    for lesson in listed:
        if lesson not in folders:
            bad.append(f"{rel}: lesson {lesson:02d} has no folder")

files = subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True, text=True,
                       check=True).stdout.split()
slugs = {name[3:]: name for name in folders.values()}
for rel in files:
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        continue
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        for m in re.finditer(r"\b(\d\d)_([a-z][a-z0-9_]*[a-z0-9])\b", line):
            name = f"{m.group(1)}_{m.group(2)}"
            if m.group(2) in slugs and slugs[m.group(2)] != name:
                bad.append(f"{rel}:{n}: {name} is lesson {slugs[m.group(2)]}")
for number, folder in sorted(folders.items()):
    for rel, word in ((f"lessons/{folder}/README.md", "Lesson"), (f"lessons/{folder}/EXERCISE.md", "Exercise")):
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            first = open(path, encoding="utf-8").readline()
            if not first.startswith(f"# {word} {number:02d} "):
                bad.append(f"{rel}:1: the title is not '# {word} {number:02d} ...': {first.strip()!r}")
all_listed = table_lessons("lessons/README.md", "## The course")
if all_listed != sorted(folders):
    bad.append(f"lessons/README.md: the table under '## The course' lists {all_listed}, the folders are {sorted(folders)}")
mention = re.compile(r"\b[Ll]essons? (\d\d)\b")
for rel in files:
    path = os.path.join(root, rel)
    if not os.path.isfile(path) or rel.startswith("tests/grading/submissions/"):
        continue
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        for m in mention.finditer(line):
            if int(m.group(1)) not in folders:
                bad.append(f"{rel}:{n}: names lesson {m.group(1)}, which has no folder")
for b in bad:
    print(b)
print(f"{len(bad)} disagreement(s)" if bad else
      f"the ladder's {len(ladder)} rungs are in one order everywhere, every lesson named has its folder")
sys.exit(1 if bad else 0)

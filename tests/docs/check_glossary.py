"""Every word of lessons/GLOSSARY.md is taught before it is used: in folder order, no lesson's
README.md, EXERCISE.md or exercise/HINTS.md matches a term's pattern before the lesson the glossary
says teaches it, and that lesson's README does match it. Prints each disagreement and exits 1 if any.
    python3 tests/docs/check_glossary.py REPO_ROOT"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
glossary = open(os.path.join(root, "lessons/GLOSSARY.md"), encoding="utf-8").read()
terms = []
for line in glossary.split("\n"):
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
    if len(cells) == 4 and re.fullmatch(r"\d\d", cells[2]):
        pattern = cells[1].strip("`").replace("\\|", "|")
        terms.append((cells[0], re.compile(pattern, re.I), int(cells[2])))
bad = []
if len(terms) < 10:
    bad.append(f"lessons/GLOSSARY.md: only {len(terms)} terms read from its table")
lessons = sorted(d for d in os.listdir(os.path.join(root, "lessons"))
                 if re.match(r"\d\d_", d) and os.path.isdir(os.path.join(root, "lessons", d)))
taught_in = {int(d[:2]): d for d in lessons}


def texts(folder):
    for rel in ("README.md", "EXERCISE.md", "exercise/HINTS.md"):
        path = os.path.join(root, "lessons", folder, rel)
        if os.path.isfile(path):
            yield f"lessons/{folder}/{rel}", open(path, encoding="utf-8").read()


for term, pattern, lesson in terms:
    if lesson not in taught_in:
        bad.append(f"lessons/GLOSSARY.md: {term!r} is taught in lesson {lesson:02d}, which has no folder")
        continue
    readme = dict(texts(taught_in[lesson])).get(f"lessons/{taught_in[lesson]}/README.md", "")
    if not pattern.search(readme):
        bad.append(f"lessons/{taught_in[lesson]}/README.md: teaches {term!r} (the glossary says) "
                   "but never names it")
    for folder in lessons:
        if int(folder[:2]) >= lesson:
            break
        for rel, text in texts(folder):
            m = pattern.search(text)
            if m:
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{rel}:{line}: uses {term!r} ({m.group(0)!r}), which lesson "
                           f"{lesson:02d} teaches")
for b in bad:
    print(b)
print(f"{len(bad)} disagreement(s)" if bad else
      f"{len(terms)} terms, each taught before any lesson uses it")
sys.exit(1 if bad else 0)

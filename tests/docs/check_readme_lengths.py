"""A README is read, not scrolled: the front page (README.md) and every lesson's README are at
most LIMIT lines. WAITING, empty now, lists any README that still holds several ideas and waits
to be split (issue 23 of the tracker), with the length it has now, which it may not pass. Prints
each README over its limit and exits 1 if any.
    python3 tests/docs/check_readme_lengths.py REPO_ROOT"""
import glob
import os
import sys

root = sys.argv[1]
LIMIT = 200
# Lessons to be split into one idea each; each may shrink, never grow.
WAITING = {}
bad = 0
paths = ["README.md"] + sorted(os.path.relpath(p, root)
                               for p in glob.glob(os.path.join(root, "lessons/*/README.md")))
for rel in paths:
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        lines = len(f.read().rstrip("\n").split("\n"))
    limit = WAITING.get(rel, LIMIT)
    if lines > limit:
        print(f"{rel}: {lines} lines, over its limit of {limit}")
        bad += 1
print(f"{bad} README(s) too long" if bad else f"{len(paths)} READMEs within their limits")
sys.exit(1 if bad else 0)

"""README text that comes from a committed results file is generated, never typed: each span
    <!-- results: FILE [line=REGEX] [after=TEXT] [cell=K] [bullets] -->...<!-- end results -->
of a Markdown file holds FILE (a path from the repository root), or the part the options pick: the
first line matching REGEX, what follows TEXT on it, its K-th table cell (from 1), each line as a
list item. A span whose opening comment ends its line is a block; otherwise the text is inline, in
backticks.
    python3 tests/docs/results_blocks.py REPO_ROOT           # check: exits 1 naming stale spans
    python3 tests/docs/results_blocks.py REPO_ROOT --write   # regenerate them"""
import glob
import os
import re
import sys

root = sys.argv[1]
write = "--write" in sys.argv[2:]
SPAN = re.compile(r"<!-- results: (\S+)((?: [a-z]+(?:=(?:\"[^\"]*\"|\S+))?)*) -->(.*?)<!-- end results -->", re.S)
OPTION = re.compile(r" ([a-z]+)(?:=(?:\"([^\"]*)\"|(\S+)))?")


def cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def generated(path, options, block):
    text = open(os.path.join(root, path), encoding="utf-8").read().rstrip("\n")
    opts = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3) for m in OPTION.finditer(options)}
    if "line" in opts:
        hits = [l for l in text.split("\n") if re.search(opts["line"], l)]
        if not hits:
            raise SystemExit(f"{path}: no line matches {opts['line']!r}")
        text = hits[0]
    if "after" in opts:
        text = text.split(opts["after"], 1)[1]
    if "cell" in opts:
        text = cells(text)[int(opts["cell"]) - 1]
    if "bullets" in opts:
        text = "\n".join("- " + l for l in text.split("\n") if l.strip())
    return "\n" + text + "\n" if block else " `" + text.strip() + "` "


stale = []
for md in sorted(glob.glob(os.path.join(root, "**", "*.md"), recursive=True)):
    if "/build" in md or "/.carry" in md or "/.git/" in md:
        continue
    old = open(md, encoding="utf-8").read()

    def fill(m):
        block = m.group(3).startswith("\n")
        return f"<!-- results: {m.group(1)}{m.group(2)} -->{generated(m.group(1), m.group(2), block)}<!-- end results -->"

    new = SPAN.sub(fill, old)
    if new != old:
        stale.append(os.path.relpath(md, root))
        if write:
            open(md, "w", encoding="utf-8").write(new)
if stale and not write:
    print("stale results spans (run: python3 tests/docs/results_blocks.py . --write):\n  " + "\n  ".join(stale))
    sys.exit(1)
print(("regenerated: " + ", ".join(stale)) if stale else "every results span matches its file")

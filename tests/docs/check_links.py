"""Every link in the Markdown files leads somewhere: each relative link or image of every tracked
.md file names a file or folder that exists, and each #anchor (in the same file or another) names a
heading of that file, as GitHub makes anchors of headings. Prints each broken link with its file and
line, and exits 1 if any.
    python3 tests/docs/check_links.py REPO_ROOT"""
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def anchors(path):
    """GitHub's anchors for the headings of a Markdown file: lower case, punctuation but '-' and
    '_' dropped, spaces as '-'."""
    found = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#+ (.*)", line)
        if m:
            text = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            found.add(text.replace(" ", "-"))
    return found


files = subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True, text=True,
                       check=True).stdout.split()
bad = 0
for rel in files:
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        continue
    text = open(path, encoding="utf-8").read()
    text_no_code = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for m in LINK.finditer(text_no_code):
        target = m.group(1) or m.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto: ...
            continue
        where, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), where)) if where else path
        line = text_no_code[:m.start()].count("\n") + 1
        if not os.path.exists(dest):
            print(f"{rel}:{line}: {target}: no such file or folder")
            bad += 1
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            print(f"{rel}:{line}: {target}: no heading makes the anchor #{anchor}")
            bad += 1
print(f"{bad} broken link(s)" if bad else f"every link in {len(files)} Markdown files leads somewhere")
sys.exit(1 if bad else 0)

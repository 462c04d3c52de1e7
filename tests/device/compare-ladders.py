"""The before/after table of compare-builds.sh: for each size and rung, the median time of each
tree over its runs, their ratio, each tree's own spread (max/min over its runs), which is the
run-to-run noise a difference must exceed to mean anything, the range of each tree's runs, and
whether the two ranges overlap."""
import glob
import json
import os
import sys

out = sys.argv[1]


def times(side, tag):
    per = {}
    for path in sorted(glob.glob(os.path.join(out, f"{side}-{tag}-*.json"))):
        doc = json.load(open(path))
        for r in doc["runs"]:
            if r.get("backend") != "gpu" or "time" not in r:
                continue
            key = (r["lesson"], r["variant"])
            per.setdefault(key, []).append(r["time"]["median_ms"])
    return per


tags = sorted({os.path.basename(p).split("-")[1] for p in glob.glob(os.path.join(out, "before-*.json"))}, key=int)
device = json.load(open(glob.glob(os.path.join(out, "after-*.json"))[0]))["device"]["name"]
print(f"Device: {device}. Median of each tree's runs; spread = max/min of that tree's runs.\n")
for tag in tags:
    b, a = times("before", tag), times("after", tag)
    print(f"N = 2^{tag[1:]}\n" if tag.startswith("2") else f"N = {tag}\n")
    print("| lesson | variant | before | after | after/before | spread before | spread after | runs before | runs after | overlap |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(b):
        if key not in a:
            continue
        mb, ma = sorted(b[key])[len(b[key]) // 2], sorted(a[key])[len(a[key]) // 2]
        sb, sa = max(b[key]) / min(b[key]), max(a[key]) / min(a[key])
        rb = f"{min(b[key]) * 1e3:.2f}-{max(b[key]) * 1e3:.2f} us"
        ra = f"{min(a[key]) * 1e3:.2f}-{max(a[key]) * 1e3:.2f} us"
        overlap = "yes" if min(a[key]) <= max(b[key]) and min(b[key]) <= max(a[key]) else "no"
        print(f"| {key[0]:02d} | {key[1] or '-'} | {mb * 1e3:.1f} us | {ma * 1e3:.1f} us | {ma / mb:.3f} | {sb:.3f} | {sa:.3f} | {rb} | {ra} | {overlap} |")
    print()

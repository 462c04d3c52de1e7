"""table=sweep: lesson 07's kernel at a fixed number of inputs a thread (`reducelab sweep`), one row
per number, then the lesson's own grid sized to the GPU; for each size the threads of the first
launch and the figures asked for.
    table=sweep n=2^24,2^28 [figures=time,pct] [inputs=2,8,32]
        inputs a thread | 2^24 threads | 2^24 time | 2^24 % of ceiling | 2^28 threads | ...
inputs= keeps only the rows of those numbers (the own grid's row stays);
figures=, comma-separated: time, pct (% of ceiling), chain (the longest chain of additions from an
input to the result: K in a thread and the block's tree, pass after pass, as the plan's depth counts
it), error (|result - the double reference|), bound (the tolerance the check allowed: Higham's bound
for that chain). The variants are named "K_per_thread"; the own grid's threads and chain are '-'."""
import re

from . import bench, common
from .common import SpanError, size_text

FIGURES = {"time": "time", "pct": "% of ceiling", "chain": "longest chain", "error": "error",
           "bound": "bound"}
OWN = "lesson 07's grid"


def power_text(n):
    return "2^%d" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)


def per_thread(run):
    m = re.fullmatch(r"(\d+)_per_thread", run.get("variant", ""))
    return int(m.group(1)) if m else None


def ceil_div(a, b):
    return -(-a // b)


def chain(n, k, block):
    """per_thread_depth (lesson 07's plan.cu): each pass adds k in a thread, then log2(block) + 1."""
    depth = 0
    while True:
        depth += k + (block - 1).bit_length() + 1
        n = ceil_div(n, k * block)
        if n <= 1:
            return depth


def render(root, md, files, opts):
    b = bench.load(root, files)
    ns = common.sizes(opts)
    figures = common.words(opts, "figures", ["time", "pct"])
    for f in figures:
        if f not in FIGURES:
            raise SpanError(f"figures: {f!r} is not one of {', '.join(FIGURES)}")
    rows = {}  # K (None: the own grid) -> {n: run}
    for n in ns:
        at = [(r, base) for r, base in b.at(n, {7})
              if per_thread(r) is not None or not r.get("variant")]
        if not at:
            raise SpanError(f"{', '.join(files)}: no run of lesson 07 at n={size_text(n)}")
        for r, base in at:
            rows.setdefault(per_thread(r), {})[n] = (r, base)
    keep = common.words(opts, "inputs")
    if keep is not None:
        if not all(w.isdigit() for w in keep):
            raise SpanError(f"inputs={opts['inputs']}: whole numbers, comma-separated")
        missing = [w for w in keep if int(w) not in rows]
        if missing:
            raise SpanError(f"inputs=: no run at {', '.join(missing)} inputs a thread")
        rows = {k: v for k, v in rows.items() if k is None or str(k) in keep}
    order = sorted(k for k in rows if k is not None) + ([None] if None in rows else [])
    header = ["inputs a thread"]
    for n in ns:
        header += [f"{size_text(n)} {c}" for c in ["threads"] + [FIGURES[f] for f in figures]]
    out = []
    for k in order:
        row = [str(k) if k else OWN]
        for n in ns:
            if n not in rows[k]:
                row += ["-"] * (1 + len(figures))
                continue
            run, base = rows[k][n]
            fig = bench.figures(b, run, base)
            cells = {"time": fig["time"], "pct": fig["% of ceiling"],
                     "chain": str(chain(n, k, run["block"])) if k else "-",
                     "error": "%.3g" % abs(run["result"] - run["reference"]),
                     "bound": "%.3g" % run["tolerance"]}
            threads = power_text(ceil_div(n, k * run["block"]) * run["block"]) if k else "-"
            row += [threads] + [cells[f] for f in figures]
        out.append(row)
    return common.device_line(b.docs, md, root) + "\n\n" + common.md_table(header, out)

"""table=ops: lesson 18's operators x element types (schema reducelab.ops, or the lesson's record
in a reducelab.beyond), as its README shows them: one row per operator, one column per type.
    table=ops [n=2^28] [ops=sum,max] [types=float32,float16]
The sum row gives GB/s (the first cell with its unit), every other row the run's bandwidth as a %
of the same type's sum; each cell then x CUB (CUB's counterpart on the same data). The figures are
computed as 18_operators_and_types prints them: % of sum = sum's median / this median."""
from . import common
from .common import SpanError, fixed

SCHEMAS = ("reducelab.ops",)


def render(root, md, files, opts):
    docs = common.load(root, files, SCHEMAS, lesson="18_operators_and_types")
    runs = [r for _, d in docs for r in d.get("runs", []) if "time" in r]
    ns = list(dict.fromkeys(r["n"] for r in runs))
    if opts.get("n"):
        ns = [common.parse_size(opts["n"])]
    elif len(ns) > 1:
        raise SpanError(f"the runs are at {len(ns)} sizes: n= picks one")
    runs = [r for r in runs if r["n"] == ns[0]] if ns else []
    ops = common.words(opts, "ops", list(dict.fromkeys(r["op"] for r in runs)))
    types = common.words(opts, "types", list(dict.fromkeys(r["dtype"] for r in runs)))
    if not ops or not types:
        raise SpanError(f"{', '.join(files)}: no timed run to show")
    by = {(r["op"], r["dtype"]): r for r in runs}
    rows = []
    for op in ops:
        row = [op]
        for i, t in enumerate(types):
            r = by.get((op, t))
            if r is None:
                row.append("-")
                continue
            ms = r["time"]["median_ms"]
            total = by.get(("sum", t))
            if op == "sum" or total is None:
                cell = fixed(r["gbps"], 0) + (" GB/s" if i == 0 else "") if "gbps" in r else "-"
            else:
                cell = fixed(100.0 * total["time"]["median_ms"] / ms, 1) + "%"
            if r.get("cub"):
                cell += ", " + fixed(r["cub"]["time"]["median_ms"] / ms, 2) + "x"
            row.append(cell)
        rows.append(row)
    return common.device_line(docs, md, root) + "\n\n" + common.md_table(["op"] + types, rows)

"""table=axes: lesson 21's axis sets of one tensor (schema reducelab.axes, or the lesson's record in
a reducelab.beyond), one row per axis set for one operator and type.
    table=axes [op=sum] [type=float32]
        axes | plan | time | GB/s | x CUB | x torch | x best
plan is the planner's strategy, with the number of ways the reduction is split where it is."""
from . import common
from .common import SpanError, duration, fixed

SCHEMAS = ("reducelab.axes",)


def render(root, md, files, opts):
    docs = common.load(root, files, SCHEMAS, lesson="21_any_axes")
    op, dtype = opts.get("op", "sum"), opts.get("type", "float32")
    runs = [r for _, d in docs for r in d.get("runs", [])
            if r["op"] == op and r["dtype"] == dtype and "time" in r]
    if not runs:
        raise SpanError(f"{', '.join(files)}: no timed {op} {dtype} run")
    rows = []
    for r in runs:
        ms = r["time"]["median_ms"]
        cub = r["cub"]["time"]["median_ms"] if r.get("cub") else None
        torch = r["torch"]["median_ms"] if r.get("torch") else None
        others = [t for t in (cub, torch) if t]
        plan = r["strategy"] + (f", split {r['splits']} ways" if r.get("splits", 1) > 1 else "")
        rows.append(["{" + ",".join(str(a) for a in r["axes"]) + "}", plan, duration(ms),
                     fixed(r["gbps"], 0) if "gbps" in r else "-"] +
                    [fixed(t / ms, 2) if t else "-"
                     for t in (cub, torch, min(others) if others else None)])
    header = ["axes", "plan", "time", "GB/s", "x CUB", "x torch", "x best"]
    return common.device_line(docs, md, root) + "\n\n" + common.md_table(header, rows)

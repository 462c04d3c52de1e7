"""table=rows and table=columns: lessons 19 and 20 (schema reducelab.matrix, or the lesson's record
in a reducelab.beyond), one row per shape for one operator and type, as the lessons print them.
    table=rows [op=sum] [type=float32] [shapes=4096x4096,2^20x8]
        shape | plan | time | GB/s | x CUB | x torch | x best
    table=columns ...   the same, with lesson 20's naive atomic version's time after GB/s
x CUB = CUB's median / ours, x torch = torch's / ours, x best = the faster of the two / ours."""
from . import common
from .common import SpanError, duration, fixed

SCHEMAS = ("reducelab.matrix",)
LESSONS = {"rows": "19_row_reduce", "columns": "20_column_reduce"}


def shape_text(shape):
    return "x".join(common.size_text(d) for d in shape)


def parse_shape(text):
    return [common.parse_size(d) for d in text.split("x")]


def ratios(run):
    """x CUB, x torch, x best, each '-' where the run has no such baseline."""
    ms = run["time"]["median_ms"]
    cub = run["cub"]["time"]["median_ms"] if run.get("cub") else None
    torch = run["torch_median_us"] / 1000.0 if run.get("torch_median_us") else None
    others = [t for t in (cub, torch) if t]
    return [fixed(t / ms, 2) if t else "-" for t in (cub, torch, min(others) if others else None)]


def render(root, md, files, opts):
    kind = opts["table"]
    docs = common.load(root, files, SCHEMAS, lesson=LESSONS[kind])
    for path, d in docs:
        if d.get("axis") != kind:
            raise SpanError(f"{path}: a table of {d.get('axis')}, not of {kind}")
    op, dtype = opts.get("op", "sum"), opts.get("type", "float32")
    runs = [r for _, d in docs for r in d.get("runs", [])
            if r["op"] == op and r["dtype"] == dtype and "time" in r]
    mine = [r for r in runs if "deterministic" not in r]
    naive = {tuple(r["shape"]): r for r in runs if "deterministic" in r}
    shapes = [parse_shape(s) for s in common.words(opts, "shapes", [])] or \
        list(dict.fromkeys(tuple(r["shape"]) for r in mine))
    if not shapes:
        raise SpanError(f"{', '.join(files)}: no timed {op} {dtype} run")
    header = ["shape", "plan", "time", "GB/s"] + (["naive atomic"] if naive else []) + \
        ["x CUB", "x torch", "x best"]
    rows = []
    for shape in shapes:
        r = next((r for r in mine if r["shape"] == list(shape)), None)
        if r is None:
            raise SpanError(f"no timed {op} {dtype} run of shape {shape_text(shape)}")
        row = [shape_text(shape), r["plan"], duration(r["time"]["median_ms"]),
               fixed(r["gbps"], 0) if "gbps" in r else "-"]
        if naive:
            x = naive.get(tuple(shape))
            row.append(duration(x["time"]["median_ms"]) if x else "-")
        rows.append(row + ratios(r))
    return common.device_line(docs, md, root) + "\n\n" + common.md_table(header, rows)

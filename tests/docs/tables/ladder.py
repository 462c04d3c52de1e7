"""table=ladder: the runner's ladder table (common/runner/ladder.cpp), one row per kernel in the
order the file's runs give, then the streaming read (the ceiling) and CUB.
    table=ladder n=2^20                        lesson | kernel | block | time | GB/s | % of ceiling
                                               | x lesson 01 | x CUB
    table=ladder n=2^24,2^28 columns="time,x CUB"   a group of those columns per size (also
                                               launch, device time, time* as bench.figures)
    lessons=07,08                              only those lessons (every variant of each)
A lesson the file has no run of is simply absent; a size it has no run at is an error."""
from . import bench, common
from .common import SpanError, size_text

COLUMNS = ("time", "GB/s", "% of ceiling", "x lesson 01", "x CUB")
# Also to be asked for: how each run was launched, its device time, its time marked * where
# launch-bound (the run's device time under 80% of its time).
MORE = ("launch", "device time", "time*")


def render(root, md, files, opts):
    b = bench.load(root, files)
    ns = common.sizes(opts)
    columns = common.words(opts, "columns", list(COLUMNS))
    for c in columns:
        if c not in COLUMNS + MORE:
            raise SpanError(f"columns: {c!r} is not one of {', '.join(COLUMNS + MORE)}")
    only = common.lessons(opts)
    rows = {}  # (lesson, variant) -> {n: (run, baseline)}, in the order the runs come
    for n in ns:
        at = b.at(n, only)
        if not at and not b.at(n):
            raise SpanError(f"{', '.join(files)}: no run at n={size_text(n)}")
        for run, base in at:
            rows.setdefault((run["lesson"], run.get("variant", "")), {})[n] = (run, base)
    if not rows:
        raise SpanError(f"{', '.join(files)}: no run of lessons {opts.get('lessons')}")

    header = ["lesson", "kernel", "block"]
    for n in ns:
        header += [c if len(ns) == 1 else f"{size_text(n)} {c}" for c in columns]

    def cells(fig):
        return [fig["x lesson" if c == "x lesson 01" else c] for c in columns]

    def blocks(values):
        return "/".join(dict.fromkeys(values)) or "-"

    out = []
    for (lesson, _), by_n in rows.items():
        any_run = next(iter(by_n.values()))[0]
        row = [common.lesson_text(lesson), bench.name_of(any_run),
               blocks(str(by_n[n][0]["block"]) for n in ns if n in by_n)]
        for n in ns:
            row += cells(bench.figures(b, *by_n[n], versus_ms=b.first_ms(n))) if n in by_n \
                else ["-"] * len(columns)
        out.append(row)
    bases = [b.baselines.get(n) for n in ns]
    if not b.simulated and all(x and x.get("stream_read") for x in bases):
        figs = [bench.ceiling_figures(x, b.first_ms(n)) for n, x in zip(ns, bases)]
        out.append(["-", bench.CEILING, blocks(f["block"] for f in figs)] +
                   [v for f in figs for v in cells(f)])
    if not b.simulated and all(x and x.get("cub") for x in bases):
        figs = [bench.cub_figures(x, b.first_ms(n)) for n, x in zip(ns, bases)]
        out.append(["-", bench.CUB, "-"] + [v for f in figs for v in cells(f)])
    return common.device_line(b.docs, md, root) + "\n\n" + common.md_table(header, out)

"""table=lesson: one lesson's own table, its kernels (every variant) at each size, against CUB and
against the rung before it.
    table=lesson lessons=08 n=2^20,2^24,2^28 versus=07
        N | kernel | block | [launch | ]time[ | device time] | GB/s | % of ceiling | x CUB
        | x lesson 07
Rows go size by size, each size's runs in the file's order; without versus= the last column goes."""
from . import bench, common
from .common import SpanError, size_text


def render(root, md, files, opts):
    b = bench.load(root, files)
    only = common.lessons(opts)
    if not only:
        raise SpanError("table=lesson needs lessons= (the lesson whose table it is)")
    versus = common.kernel_key(opts["versus"]) if opts.get("versus") else None
    # Records that say how each run was launched show it, with the run's device time (CUPTI) and
    # its time marked * where launch-bound.
    split = any("launch" in r.get("time", {}) for r, _ in b.runs)
    header = ["N", "kernel", "block"] + (["launch", "time", "device time"] if split else ["time"]) + \
        ["GB/s", "% of ceiling", "x CUB"]
    if versus:
        header.append("x lesson " + common.lesson_text(versus[0]) +
                      (" / " + versus[1] if versus[1] else ""))
    rows = []
    for n in common.sizes(opts):
        at = b.at(n, only)
        if not at:
            raise SpanError(f"{', '.join(files)}: no run of lessons {opts['lessons']} at "
                            f"n={size_text(n)}")
        other = b.find(n, *versus) if versus else None
        if versus and not other:
            raise SpanError(f"versus={opts['versus']}: no such run at n={size_text(n)}")
        for run, base in at:
            fig = bench.figures(b, run, base, versus_ms=bench.ms_of(other[0]) if other else None)
            rows.append([size_text(n), bench.name_of(run), str(run["block"])] +
                        ([fig["launch"], fig["time*"], fig["device time"]] if split
                         else [fig["time"]]) +
                        [fig["GB/s"], fig["% of ceiling"], fig["x CUB"]] +
                        ([fig["x lesson"]] if versus else []))
    return common.device_line(b.docs, md, root) + "\n\n" + common.md_table(header, rows)

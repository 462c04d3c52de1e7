"""table=across: a few kernels' one figure across sizes, one row per kernel and one column per size,
the streaming read and CUB below them; the sizes may come from several files of one device (one run
per size).
    table=across n=2^10,2^20,2^28 kernels=12,13,13/cluster4 figure=time
        kernel | 2^10 | 2^20 | 2^28          (rows: 11 single_pass, 20 hopper_features, ...)
    figure=time|gbps|pct|xcub|ratio           one of the runner's figures; ratio with over=LESSON:
                                              its median over the row's ("x lesson 12")
    labels="a|b|c"                            names the kernels' rows instead (separated by |)
    baselines=no                              leaves out the streaming read's and CUB's rows
A kernel with no run at a size shows '-'; a size with no run of any of them is an error."""
from . import bench, common
from .common import SpanError

FIGURES = {"time": "time", "gbps": "GB/s", "pct": "% of ceiling", "xcub": "x CUB",
           "ratio": "x lesson"}


def power_text(n):
    """2^k for any power of two (the sizes here start at 2^10), else the digits."""
    return "2^%d" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)


def render(root, md, files, opts):
    b = bench.load(root, files)
    keys = [common.kernel_key(k) for k in common.words(opts, "kernels", [])]
    if not keys:
        raise SpanError("table=across needs kernels= (11, 20/cluster4, ...)")
    figure = opts.get("figure", "")
    if figure not in FIGURES:
        raise SpanError(f"figure={figure!r}: one of {', '.join(FIGURES)}")
    over = common.kernel_key(opts["over"]) if figure == "ratio" and opts.get("over") else None
    if figure == "ratio" and not over:
        raise SpanError("figure=ratio needs over=LESSON (the kernel whose median it divides)")
    ns = common.sizes(opts)
    labels = bench.labels_for(b, opts, keys, ns, "rows")

    def over_ms(n):
        if not over:
            return None
        hit = b.find(n, *over)
        if not hit or "time" not in hit[0]:
            raise SpanError(f"over={opts['over']}: no timed run at n={common.size_text(n)}")
        return bench.ms_of(hit[0])

    rows = [[label] for label in labels]
    for n in ns:
        hits = [b.find(n, *k) for k in keys]
        if not any(hits):
            raise SpanError(f"{', '.join(files)}: none of the kernels has a run at "
                            f"n={common.size_text(n)}")
        versus = over_ms(n)
        for row, hit in zip(rows, hits):
            row.append(bench.figures(b, *hit, versus_ms=versus)[FIGURES[figure]] if hit else "-")

    base_rows = []
    if opts.get("baselines", "yes") != "no" and not b.simulated:
        key = FIGURES[figure]
        ceiling_row, cub_row = [bench.CEILING], [bench.CUB]
        for n in ns:
            base = b.baselines.get(n) or {}
            versus = over_ms(n)
            ceiling_row.append(bench.ceiling_figures(base, versus)[key]
                               if base.get("stream_read") else "-")
            cub_row.append(bench.cub_figures(base, versus)[key] if base.get("cub") else "-")
        base_rows = [r for r in (ceiling_row, cub_row) if any(c != "-" for c in r[1:])]
    header = ["kernel"] + [power_text(n) for n in ns]
    return common.device_line(b.docs, md, root) + "\n\n" + common.md_table(header, rows + base_rows)

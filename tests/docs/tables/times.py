"""table=times: a few kernels' median times side by side, one row per size.
    table=times n=2^20,2^24 kernels=10,10/host_finish,12 [labels="two kernels|host finish|one"]
        N | 10 multi_block_two_kernel | 10 multi_block_two_kernel / host_finish | 11 single_pass
labels= names the columns instead (separated by |); a kernel with no run at a size shows '-'."""
from . import bench, common
from .common import SpanError, size_text


def render(root, md, files, opts):
    b = bench.load(root, files)
    keys = [common.kernel_key(k) for k in common.words(opts, "kernels", [])]
    if not keys:
        raise SpanError("table=times needs kernels= (08, 10/host_finish, ...)")
    ns = common.sizes(opts)
    labels = bench.labels_for(b, opts, keys, ns, "columns")
    rows = []
    for n in ns:
        hits = [b.find(n, *k) for k in keys]
        if not any(hits):
            raise SpanError(f"{', '.join(files)}: none of the kernels has a run at n={size_text(n)}")
        rows.append([size_text(n)] + [bench.duration(bench.ms_of(h[0])) if h and "time" in h[0]
                                      else "-" for h in hits])
    return common.device_line(b.docs, md, root) + "\n\n" + common.md_table(["N"] + labels, rows)

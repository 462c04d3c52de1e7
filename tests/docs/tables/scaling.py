"""table=scaling: lesson 22 over 1, 2, 4, 8 GPUs (`22_multi_gpu_nccl --scaling --json`, schema
reducelab.results with the multi-GPU fields), as the lesson prints it.
    table=scaling [gpus=1,2,4,8] [variant=one_process_per_gpu]
        GPUs | N per GPU | total (ms) | slowest local (ms) | collective alone (ms) | aggregate GB/s
        | efficiency
A GPU count in gpus= that the file has no run of is a row saying "not run"."""
from . import common
from .common import SpanError, fixed

SCHEMAS = ("reducelab.results",)


def render(root, md, files, opts):
    docs = common.load(root, files, SCHEMAS)
    variant = opts.get("variant", "")
    runs = [r for _, d in docs for r in d.get("runs", [])
            if r.get("lesson") == 22 and r.get("variant", "") == variant and "time" in r]
    if not runs:
        raise SpanError(f"{', '.join(files)}: no timed run of lesson 22 {variant}")
    by = {r["gpus"]: r for r in runs}
    counts = [int(g) for g in common.words(opts, "gpus", [])] or list(by)
    one = by.get(1)
    rows = []
    for k in counts:
        r = by.get(k)
        if r is None:
            rows.append([str(k)] + ["not run"] * 6)
            continue
        slowest = max(l["time"]["median_ms"] for l in r["local"])
        rows.append([str(k), common.size_text(r["n"] // k) if r["n"] % k == 0 else "-",
                     fixed(r["time"]["median_ms"], 4), fixed(slowest, 4),
                     fixed(r["collective"]["median_ms"], 4), fixed(r["gbps"], 1),
                     fixed(r["gbps"] / (k * one["gbps"]), 3) if one else "-"])
    header = ["GPUs", "N per GPU", "total (ms)", "slowest local (ms)", "collective alone (ms)",
              "aggregate GB/s", "efficiency"]
    return common.device_line(docs, md, root) + "\n\n" + \
        common.md_table(header, rows, right=range(len(header)))

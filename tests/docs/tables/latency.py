"""table=latency: lesson 11's table of bytes in flight (`11_latency_and_roofline --json`, schema
reducelab.results with a `latency` record), as the lesson's report prints it, one file per size.
    table=latency [lessons=07,11] [variants=-,1x4B]
        N | kernel | loads a thread (source) | bytes a load | registers | blocks/SM
        | in flight/SM | need/SM | % of need | GB/s | % of ceiling
need/SM is Little's law's (latency.littles_law), the same for every row of one file. Rows go file
by file, each file's rungs in its order; '-' where the record has no figure."""
from . import common
from .common import SpanError, fixed

SCHEMAS = ("reducelab.results",)


def kib(v):
    """As the report prints bytes (kibibytes, lessons/11_latency_and_roofline/report.cpp)."""
    return "%.4g KiB" % (v / 1024.0)


def render(root, md, files, opts):
    docs = common.load(root, files, SCHEMAS)
    only = common.lessons(opts)
    variants = common.words(opts, "variants")
    rows = []
    for path, doc in docs:
        lat = doc.get("latency")
        if not lat or not lat.get("rungs"):
            raise SpanError(f"{path}: no latency record (11_latency_and_roofline --json)")
        ns = {b["n"] for b in doc.get("baselines", [])} | {r["n"] for r in doc.get("runs", [])}
        if len(ns) != 1:
            raise SpanError(f"{path}: runs at {len(ns)} sizes; the table needs one a file")
        need = lat["littles_law"]["bytes_in_flight_needed_per_sm"]
        for r in lat["rungs"]:
            v = r.get("variant", "")
            if only is not None and r["lesson"] not in only:
                continue
            if variants is not None and (v or "-") not in variants:
                continue
            gbps, pct = r.get("gbps"), r.get("pct_of_ceiling")
            rows.append([common.size_text(next(iter(ns))),
                         "%02d " % r["lesson"] + r["slug"] + (" / " + v if v else ""),
                         str(r["loads_in_flight"]), str(r["load_bytes"]),
                         str(r["registers"]) if r.get("registers") else "-",
                         str(r["blocks_per_sm"]), kib(r["bytes_in_flight_per_sm"]), kib(need),
                         fixed(r["pct_of_needed"], 0),
                         fixed(gbps, 0) if gbps is not None else "-",
                         fixed(pct, 1) if pct is not None else "-"])
    if not rows:
        raise SpanError(f"no rung matches lessons={opts.get('lessons')} "
                        f"variants={opts.get('variants')}")
    header = ["N", "kernel", "loads a thread (source)", "bytes a load", "registers", "blocks/SM",
              "in flight/SM", "need/SM", "% of need", "GB/s", "% of ceiling"]
    return common.device_line(docs, md, root) + "\n\n" + \
        common.md_table(header, rows, right=range(2, len(header)))

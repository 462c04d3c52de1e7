"""table=launches: lesson 15's table of what a launch costs (`15_launch_cost --json`, schema
reducelab.results with a `launch_costs` record), as the lesson's report prints it.
    table=launches
        what is launched | stream | stream+PDL | graph | graph+PDL
the empty kernel's time a call; the single pass waiting first (lessons 12 and 13) and waiting after
its loads (lesson 15), each with its device time (one call alone, CUPTI); each the median of the
record's samples. value=launches field=empty|pass|device|after|after_device|replay way=... gives
one of them (replay: the lesson's plan with each call a replay of its own one-reduction graph)."""
from . import common
from .common import SpanError

SCHEMAS = ("reducelab.results",)
WAYS = ("stream", "stream+PDL", "graph", "graph+PDL")


def record(root, files):
    docs = common.load(root, files, SCHEMAS)
    if len(docs) != 1:
        raise SpanError("table=launches takes one file")
    path, doc = docs[0]
    rec = doc.get("launch_costs")
    if not rec or "empty_kernel" not in rec:
        raise SpanError(f"{path}: no launch_costs record (15_launch_cost --json on a GPU)")
    return docs, rec


def cell(entry):
    return common.duration(entry["median_ms"]) if entry else "-"


def render(root, md, files, opts):
    docs, rec = record(root, files)
    n = common.size_text(rec["n"])
    def row(what, key):
        return [what] + [cell(rec.get(key, {}).get(w)) for w in WAYS]
    rows = [row("an empty kernel (1 block)", "empty_kernel"),
            row(f"the single pass at {n}, waiting first (lessons 12, 13)", "single_pass"),
            row("its device time, a call alone", "single_pass_device_time"),
            row(f"the single pass at {n}, waiting after its loads (15)", "waits_after_loads"),
            row("its device time, a call alone", "waits_after_loads_device_time")]
    header = ["what is launched"] + list(WAYS)
    return common.device_line(docs, md, root) + "\n\n" + \
        common.md_table(header, rows, right=range(1, len(header)))


def value(root, files, opts):
    """value=launches field=... way=stream|stream+PDL|graph|graph+PDL (not for replay)"""
    _, rec = record(root, files)
    field = opts.get("field")
    if field == "replay":
        if "replay_per_call" not in rec:
            raise SpanError("the record has no replay_per_call")
        return cell(rec["replay_per_call"])
    key = {"empty": "empty_kernel", "pass": "single_pass", "device": "single_pass_device_time",
           "after": "waits_after_loads",
           "after_device": "waits_after_loads_device_time"}.get(field)
    if not key:
        raise SpanError("value=launches needs field=empty|pass|device|after|after_device|replay")
    way = opts.get("way")
    if way not in WAYS:
        raise SpanError("value=launches needs way=" + "|".join(WAYS))
    return cell(rec.get(key, {}).get(way))

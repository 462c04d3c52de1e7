"""table=timeline and value=timeline: where one reduction call's time goes, from CUPTI's records
(schema reducelab.timeline, `reducelab timeline --json`, common/PROFILE.md), each cell as
`reducelab timeline --from` prints it (print_timeline_table, common/host/timeline_calls.cpp).
    table=timeline [lessons=10,16/thrust] [variants=-,host_finish] [n=2^10,2^20] [block=256]
                   [columns="first,activities,gaps"]
        lesson | variant | block | n | then the columns (each by its key or its header):
        first       first API -> kernel       the call's first API entry to its first kernel
        activities  device activities (us)    each kernel (its identifier), memset and copy
        gaps        gaps (us)                 activity i's end to activity i+1's start
        host        host code                 host time outside API calls
        wall        host wall                 first API entry to last API exit
        total       total                     first API entry to the last activity's end
        api         API calls                 how many, per call
    Without columns=, all of them. Entries go in the file's order.
    value=timeline lesson=16[/variant] n=2^20 [block=256] field=KEY [index=I|sum] [name=API]
                   [digits=D] [bare]
        one figure of the one entry the selection leaves:
        first_api_to_first_kernel_us, host_us, host_wall_us, total_us     a time
        gaps_us index=I (from 0), or index=sum                            a time
        activities index=I, or index=sum: the activity's time; activity_name index=I: its label
        after index=I   what the device did after activity I ended: the gaps and the activities
                        that follow it, added up (a sum of medians): what a second launch adds
        kernels      how many kernels the call ran; api_calls [name=API] how many API calls
        api name=API the time spent in that API function (cudaLaunchKernel, ...)
        calls, calls_like_median                                          whole numbers
    Times are in microseconds with 2 decimals and the unit ("1.25 us"), as the table's; digits=D
    sets the decimals, bare drops the unit."""
from . import common
from .common import SpanError, fixed

SCHEMAS = ("reducelab.timeline",)

COLUMNS = (("first", "first API -> kernel"), ("activities", "device activities (us)"),
           ("gaps", "gaps (us)"), ("host", "host code"), ("wall", "host wall"), ("total", "total"),
           ("api", "API calls"))


def time(us):
    return fixed(us, 2) + " us"


def label(a):
    """An activity's label in a cell: a kernel's own identifier, a copy's direction."""
    return common.kernel_identifier(a["name"]) if a["kind"] == "kernel" else a["name"]


def cells(e):
    return {
        "first": time(e["first_api_to_first_kernel_us"]),
        "activities": "; ".join(f"{label(a)} {fixed(a['us'], 2)}" for a in e["activities"]),
        "gaps": "; ".join(fixed(g, 2) for g in e["gaps_us"]) or "-",
        "host": time(e["host_us"]),
        "wall": time(e["host_wall_us"]),
        "total": time(e["total_us"]),
        "api": str(sum(a["calls"] for a in e["api"])),
    }


def load(root, files):
    docs = common.load(root, files, SCHEMAS)
    return docs, [e for _, d in docs for e in d.get("entries", [])]


def tool_sentence(docs):
    tools = " and ".join(dict.fromkeys(d.get("tool", "an unrecorded CUPTI") for _, d in docs))
    method = [d.get("method", {}) for _, d in docs]
    calls = " and ".join(dict.fromkeys(str(m.get("calls", "?")) for m in method))
    stats = " and ".join(dict.fromkeys(m.get("statistic", "unrecorded statistic") for m in method))
    return f"Recorded by {tools}; each figure the {stats} of {calls} calls."


def render(root, md, files, opts):
    docs, entries = load(root, files)
    headers = dict(COLUMNS)
    by_name = {name: key for key, header in COLUMNS for name in (key, header)}
    chosen = common.words(opts, "columns", [k for k, _ in COLUMNS])
    for c in chosen:
        if c not in by_name:
            raise SpanError(f"columns: {c!r} is not one of {', '.join(k for k, _ in COLUMNS)}")
    keys = [by_name[c] for c in chosen]
    rows = []
    for e in common.select(entries, opts, ("block",), "timeline entry"):
        row = cells(e)
        rows.append([common.lesson_text(e["lesson"]), e["variant"] or "-", str(e["block"]),
                     common.size_label(e["n"])] + [row[k] for k in keys])
    header = ["lesson", "variant", "block", "n"] + [headers[k] for k in keys]
    return common.device_line(docs, md, root) + " " + tool_sentence(docs) + "\n\n" + \
        common.md_table(header, rows)


TIMES = ("first_api_to_first_kernel_us", "host_us", "host_wall_us", "total_us")


def value(root, files, opts):
    _, entries = load(root, files)
    field = opts.get("field")
    if not field:
        raise SpanError("value=timeline needs field= (total_us, gaps_us index=0, ...)")
    e = common.one(entries, opts, ("block",), "timeline entry")
    digits = opts.get("digits")
    if digits is not None and not digits.isdigit():
        raise SpanError(f"digits={digits}: a whole number of decimals")

    def us(v):
        unit = "" if "bare" in opts else " us"
        return fixed(v, int(digits) if digits is not None else 2) + unit

    def indexed(values, what):
        i = opts.get("index")
        if i == "sum":
            return sum(values)
        if i is None or not i.isdigit() or int(i) >= len(values):
            raise SpanError(f"field={field} needs index=0..{len(values) - 1} (or index=sum): the "
                            f"entry has {len(values)} {what}")
        return values[int(i)]

    if field in TIMES:
        return us(e[field])
    if field == "gaps_us":
        return us(indexed(e["gaps_us"], "gaps"))
    if field == "activities":
        return us(indexed([a["us"] for a in e["activities"]], "activities"))
    if field == "after":
        acts = e["activities"]
        i = opts.get("index")
        if i is None or not i.isdigit() or int(i) >= len(acts):
            raise SpanError(f"field=after needs index=0..{len(acts) - 1}: the entry has "
                            f"{len(acts)} activities")
        return us(sum(e["gaps_us"][int(i):]) + sum(a["us"] for a in acts[int(i) + 1:]))
    if field == "activity_name":
        if opts.get("index") == "sum":
            raise SpanError("field=activity_name needs one index=")
        return label(indexed(e["activities"], "activities"))
    if field == "kernels":
        return str(sum(1 for a in e["activities"] if a["kind"] == "kernel"))
    if field in ("calls", "calls_like_median"):
        return str(e[field])
    if field in ("api", "api_calls"):
        name = opts.get("name")
        api = [a for a in e["api"] if name is None or a["name"] == name]
        if name is not None and not api:
            raise SpanError(f"name={name}: the call made no such API call (it made "
                            f"{', '.join(a['name'] for a in e['api'])})")
        if field == "api_calls":
            return str(sum(a["calls"] for a in api))
        if name is None:
            raise SpanError("field=api needs name= (cudaLaunchKernel, ...)")
        return us(api[0]["us"])
    raise SpanError(f"field={field}: one of {', '.join(TIMES)}, gaps_us, activities, after, "
                    "activity_name, kernels, api, api_calls, calls, calls_like_median")

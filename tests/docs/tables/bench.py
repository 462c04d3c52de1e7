"""The ladder's results (schema reducelab.results: `reducelab bench|ladder --json`, a lesson's
`--json`): its runs in the order the file gives them, each with the baselines measured in the same
run, and every figure the runner's table prints (common/runner/ladder.cpp), computed as it computes
them. Also the inline values: `value=time|device|gbps|pct|xcub|ratio|min|max|calls|tolerance n=N
lesson=L [variant=V] [over=L2]`, `value=result|bits|reference|error` (the float32 a run returned,
its bit pattern, the double reference, their distance), and lesson=ceiling or lesson=cub
[launch=stream|stream+PDL|graph|graph+PDL] for the baselines' time, device time, GB/s, % of ceiling
and calls (the calls a timed sample queued back to back: time.calls_per_sample)."""
import struct

from . import common
from .common import SpanError, duration, fixed

SCHEMAS = ("reducelab.results",)
CEILING = "streaming read (ceiling)"
CUB = "cub::DeviceReduce::Sum"


class Bench:
    def __init__(self, docs):
        self.docs = docs
        self.simulated = bool(docs[0][1]["device"].get("simulated"))
        self.runs = []  # (run, the baseline of its own file at its n, or None)
        self.baselines = {}  # n -> the first file's baseline at n
        for _, doc in docs:
            own = {b["n"]: b for b in doc.get("baselines", [])}
            for n, b in own.items():
                self.baselines.setdefault(n, b)
            for r in doc.get("runs", []):
                self.runs.append((r, own.get(r["n"])))

    def at(self, n, lessons=None):
        """The runs at n (of the lessons named, else all), in the file's order."""
        return [(r, b) for r, b in self.runs
                if r["n"] == n and (lessons is None or r["lesson"] in lessons)]

    def find(self, n, lesson, variant=""):
        for r, b in self.runs:
            if r["n"] == n and r["lesson"] == lesson and r.get("variant", "") == variant:
                return r, b
        return None

    def first_ms(self, n):
        """Lesson 01's median at n: what "x lesson 01" divides."""
        hit = self.find(n, 1)
        return ms_of(hit[0]) if hit and "time" in hit[0] else None


def ms_of(run):
    return run["time"]["median_ms"]


def name_of(run):
    v = run.get("variant", "")
    return run["slug"] + (" / " + v if v else "")



def labels_for(b, opts, keys, ns, unit):
    """The names of the kernels `keys` in a table over sizes `ns`: labels="a|b|c" as given (one per
    kernel, `unit` saying what they name in the error), else each kernel's lesson and name from its
    first run at one of the sizes."""
    labels = opts["labels"].split("|") if opts.get("labels") else None
    if labels and len(labels) != len(keys):
        raise SpanError(f"labels= names {len(labels)} {unit}, kernels= {len(keys)}")
    if labels:
        return labels
    labels = []
    for lesson, variant in keys:
        hit = next((b.find(n, lesson, variant) for n in ns if b.find(n, lesson, variant)), None)
        if not hit:
            raise SpanError(f"no run of lesson {lesson} {variant} at any size asked for")
        labels.append(common.lesson_text(lesson) + " " + name_of(hit[0]))
    return labels

def ceiling_of(b):
    """The plain ceiling's GB/s: the read-only kernel's, or the rung's that read faster
    (faster_than_the_ceiling_kernel), as the runner takes it."""
    if not b or not b.get("stream_read"):
        return None
    for f in b.get("faster_than_the_ceiling_kernel", []):
        if f["launch"] == "stream":
            return b["n"] * 4 / (f["median_ms"] * 1e6)
    return b.get("stream_read_gbps")


def cub_ms(b):
    return b["cub"]["median_ms"] if b and b.get("cub") else None


def figures(bench, run, base, versus_ms=None):
    """The runner's cells for one run: time (marked * where launch-bound), device time, launch,
    GB/s, % of ceiling, x versus (lesson 01 in the ladder), x CUB; '-' where the run or its
    baseline lacks what a cell needs. A record that says how its run was launched (time.launch)
    carries its own % of ceiling and x CUB, against the yardsticks launched the same way; an older
    one is read against the plain ceiling and CUB, as its program computed them."""
    if "time" not in run:
        return {k: "-" for k in ("time", "time*", "device time", "launch", "GB/s", "% of ceiling",
                                 "x lesson", "x CUB")}
    ms = ms_of(run)
    gpu = not bench.simulated
    ceiling, cub = ceiling_of(base), cub_ms(base)
    launch = run["time"].get("launch")
    if launch is not None:
        pct = fixed(run["pct_of_ceiling"], 1) if gpu and "pct_of_ceiling" in run else "-"
        xcub = fixed(run["vs_cub"], 2) if gpu and "vs_cub" in run else "-"
    else:
        pct = fixed(100.0 * run["gbps"] / ceiling, 1) if gpu and ceiling else "-"
        xcub = fixed(cub / ms, 2) if gpu and cub else "-"
    device = run.get("device_time")
    return {
        "time": duration(ms),
        "time*": duration(ms) + (" *" if run.get("launch_bound") else ""),
        "device time": duration(device["median_ms"]) if device else "-",
        "launch": launch or "stream",
        "GB/s": fixed(run["gbps"], 0) if gpu else "-",
        "% of ceiling": pct,
        "x lesson": fixed(versus_ms / ms, 2) if gpu and versus_ms else "-",
        "x CUB": xcub,
    }


def ceiling_figures(b, versus_ms):
    ms = b["stream_read"]["median_ms"]
    cub = cub_ms(b)
    device = b.get("stream_read_device_time")
    return {"block": str(b.get("stream_read_block", "-")), "time": duration(ms),
            "time*": duration(ms), "launch": "stream",
            "device time": duration(device["median_ms"]) if device else "-",
            "GB/s": fixed(b["stream_read_gbps"], 0),
            "% of ceiling": fixed(100.0 * ceiling_of(b) / b["stream_read_gbps"], 1),
            "x lesson": fixed(versus_ms / ms, 2) if versus_ms else "-",
            "x CUB": fixed(cub / ms, 2) if cub else "-"}


def cub_figures(b, versus_ms):
    ms = cub_ms(b)
    gbps = b["n"] * 4 / (ms * 1e6)  # float32 input bytes / time, as gigabytes_per_second
    ceiling = ceiling_of(b)
    device = b.get("cub_device_time")
    return {"block": "-", "time": duration(ms), "time*": duration(ms), "launch": "stream",
            "device time": duration(device["median_ms"]) if device else "-",
            "GB/s": fixed(gbps, 0),
            "% of ceiling": fixed(100.0 * gbps / ceiling, 1) if ceiling else "-",
            "x lesson": fixed(versus_ms / ms, 2) if versus_ms else "-", "x CUB": "1.00"}


def float32_bits(x):
    """The float32 a run returned (stored as a double, exactly), as its bit pattern: 0x4519...."""
    return "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


# value=result|bits|reference|error: the float32 a run returned (9 significant digits: enough to
# tell any two float32 apart), its bits, the double reference it was checked against, and
# |result - reference|.
ARITHMETIC = {
    "result": lambda r: "%.9g" % r["result"],
    "bits": lambda r: float32_bits(r["result"]),
    "reference": lambda r: "%.10g" % r["reference"],
    "error": lambda r: "%.3g" % abs(r["result"] - r["reference"]),
}


def calls_of(timing):
    if "calls_per_sample" not in timing:
        raise SpanError("value=calls: the file records no calls_per_sample")
    return str(timing["calls_per_sample"])


def load(root, files):
    return Bench(common.load(root, files, SCHEMAS))


def value(bench, opts):
    """One number for a sentence: value=KIND n=N lesson=L [variant=V] [over=L2[/V2]]."""
    kind = opts["value"]
    n = common.parse_size(opts.get("n", ""))
    which = opts.get("lesson", "")
    base = bench.baselines.get(n)
    if which in ("ceiling", "cub"):
        launch = opts.get("launch", "stream")
        timing, device = None, None
        if which == "ceiling" and base:
            if launch == "stream":
                timing, device = base.get("stream_read"), base.get("stream_read_device_time")
            for w in base.get("stream_read_ways", []):
                if w["launch"] == launch:
                    timing, device = w["time"], w.get("device_time")
        elif which == "cub" and base:
            timing = base.get("cub") if launch == "stream" else \
                base.get("cub_graph") if launch == "graph" else None
            device = base.get("cub_device_time") if launch == "stream" else None
        if not timing:
            raise SpanError(f"no {which} baseline launched {launch} at n={common.size_text(n)}")
        ms = timing["median_ms"]
        gbps = n * 4 / (ms * 1e6)
        if kind == "time":
            return duration(ms)
        if kind == "device":
            if not device:
                raise SpanError(f"the {which} baseline at n={common.size_text(n)} has no device time")
            return duration(device["median_ms"])
        if kind == "gbps":
            return fixed(gbps, 0)
        if kind == "pct" and ceiling_of(base) and launch == "stream":
            return fixed(100.0 * gbps / ceiling_of(base), 1)
        if kind == "calls":
            return calls_of(timing)
        raise SpanError(f"value={kind} is not given for lesson={which} launch={launch} "
                        "(time, device, gbps, pct on the stream, or calls)")
    lesson, variant = common.kernel_key(which)
    variant = opts.get("variant", variant)
    hit = bench.find(n, lesson, variant)
    if hit and kind in ARITHMETIC:  # what the run added up, timed or not
        return ARITHMETIC[kind](hit[0])
    if not hit or "time" not in hit[0]:
        raise SpanError(f"no timed run of lesson {which} {variant} at n={common.size_text(n)}")
    run, own = hit
    if kind == "min":
        return duration(run["time"]["min_ms"])
    if kind == "max":
        return duration(run["time"]["max_ms"])
    if kind == "tolerance":
        return fixed(run["tolerance"], 0)
    if kind == "calls":
        return calls_of(run["time"])
    if kind == "device":
        if "device_time" not in run:
            raise SpanError(f"lesson {which} at n={common.size_text(n)} has no device time")
        return duration(run["device_time"]["median_ms"])
    if kind == "ratio":
        other = bench.find(n, *common.kernel_key(opts.get("over", "")))
        if not other:
            raise SpanError(f"value=ratio needs over=LESSON with a run at n={common.size_text(n)}")
        return fixed(ms_of(other[0]) / ms_of(run), 2)
    cells = figures(bench, run, own)
    key = {"time": "time", "gbps": "GB/s", "pct": "% of ceiling", "xcub": "x CUB"}.get(kind)
    if key is None:
        raise SpanError(f"value={kind}: one of time, gbps, pct, xcub, ratio, min, max, calls, "
                        "tolerance, result, bits, reference, error")
    return cells[key]

"""Each table kind of tests/docs/tables rendered from a small synthetic results file, against the
exact rows worked out by hand from the numbers below (and the refusals: two devices in one table,
a selection with no run).
    python3 tests/docs/test_tables.py"""
import json
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402
from tables.common import SpanError  # noqa: E402

H100 = {"name": "NVIDIA H100 80GB HBM3", "simulated": False, "sm_count": 132}
H200 = {"name": "NVIDIA H200", "simulated": False, "sm_count": 132}
N20, N24 = 1 << 20, 1 << 24


def gbps(n, ms, size=4):
    return n * size / (ms * 1e6)


def run(lesson, slug, n, ms, block=256, variant="", lo=None, hi=None):
    return {"lesson": lesson, "slug": slug, "variant": variant, "n": n, "block": block,
            "time": {"median_ms": ms, "min_ms": lo or ms, "max_ms": hi or ms,
                     "calls_per_sample": 7},
            "gbps": gbps(n, ms), "tolerance": 12.4}


def baseline(n, read_ms, read_block, cub_ms):
    return {"n": n, "stream_read": {"median_ms": read_ms, "calls_per_sample": 17},
            "stream_read_block": read_block, "stream_read_gbps": gbps(n, read_ms),
            "cub": {"median_ms": cub_ms, "calls_per_sample": 9}}


BENCH = {
    "schema": "reducelab.results", "version": 1, "created_utc": "2026-01-02T03:04:05Z",
    "backend": "gpu", "device": H100,
    "runs": [run(1, "divergent", N20, 0.02), run(2, "strided", N20, 0.01),
             run(2, "strided", N20, 0.04, variant="wide", lo=0.0351, hi=0.0449),
             run(3, "sequential", N20, 0.008, block=1024),
             run(1, "divergent", N24, 2.0), run(2, "strided", N24, 0.5),
             run(3, "sequential", N24, 0.25)],
    "baselines": [baseline(N20, 0.005, 256, 0.01), baseline(N24, 0.4, 1024, 0.5)],
}


def cuda_time(ms):
    return {"median_ms": ms, "min_ms": ms, "max_ms": ms}


OPS = {"schema": "reducelab.ops", "version": 1, "device": H200, "runs": [
    {"op": "sum", "dtype": "float32", "n": N24, "time": cuda_time(0.1), "gbps": 1000.0,
     "cub": {"time": cuda_time(0.1)}},
    {"op": "max", "dtype": "float32", "n": N24, "time": cuda_time(0.125), "gbps": 800.0,
     "cub": {"time": cuda_time(0.25)}},
    {"op": "sum", "dtype": "float16", "n": N24, "time": cuda_time(0.2), "gbps": 500.4,
     "cub": {"time": cuda_time(0.3)}},
    {"op": "max", "dtype": "float16", "n": N24, "time": cuda_time(0.25), "gbps": 400.0}]}


def matrix(axis, extra):
    runs = [{"shape": [4096, 4096], "op": "sum", "dtype": "float32", "plan": "a block a row",
             "time": cuda_time(0.02), "gbps": 3355.4432, "cub": {"time": cuda_time(0.0214)},
             "torch_median_us": 30.0},
            {"shape": [4096, 4096], "op": "max", "dtype": "float32", "plan": "a block a row",
             "time": cuda_time(0.03), "gbps": 2236.96},
            {"shape": [N20, 8], "op": "sum", "dtype": "float32", "plan": "16 rows a warp",
             "time": cuda_time(0.01), "gbps": 3355.4432, "torch_median_us": 20.0}] + extra
    return {"schema": "reducelab.matrix", "version": 1, "axis": axis, "device": H200,
            "runs": runs}


AXES = {"schema": "reducelab.axes", "version": 1, "device": H200, "runs": [
    {"axes": [0, 2], "op": "sum", "dtype": "float32", "strategy": "strided, kept innermost",
     "splits": 33, "time": cuda_time(0.07), "gbps": 3834.8, "cub": {"time": cuda_time(7.0)},
     "torch": {"median_ms": 0.0777}},
    {"axes": [3], "op": "sum", "dtype": "float32", "strategy": "rows", "splits": 1,
     "time": cuda_time(0.08), "gbps": 3355.4}]}


def nccl(k, n, total, locals_ms, collective):
    return {"lesson": 22, "variant": "", "gpus": k, "n": n, "time": {"median_ms": total},
            "local": [{"time": {"median_ms": m}} for m in locals_ms],
            "collective": {"median_ms": collective}, "gbps": gbps(n, total)}


SCALING = {"schema": "reducelab.results", "version": 1, "created_utc": "2026-02-03T04:05:06Z",
           "device": H200, "gpus": ["NVIDIA H200", "NVIDIA H200"], "baselines": [], "runs": [
               nccl(1, 1 << 30, 1.0, [0.99], 0.007), nccl(2, 1 << 31, 1.0, [0.98, 0.99], 0.016)]}

def rung(lesson, slug, variant, loads, width, registers, blocks, gbps_, ceiling, need):
    flight = loads * width * 2048
    return {"lesson": lesson, "slug": slug, "variant": variant, "loads_in_flight": loads,
            "load_bytes": width, "registers": registers, "blocks_per_sm": blocks,
            "bytes_in_flight_per_sm": float(flight), "pct_of_needed": 100.0 * flight / need,
            "gbps": gbps_, "pct_of_ceiling": 100.0 * gbps_ / ceiling}


# Little's need 8000 bytes an SM; ceiling 3000 GB/s
LATENCY = {"schema": "reducelab.results", "version": 1, "created_utc": "2026-01-02T03:04:05Z",
           "backend": "gpu", "device": H100, "baselines": [baseline(1 << 26, 0.09, 256, 0.1)],
           "runs": [], "latency": {
               "littles_law": {"bytes_in_flight_needed_per_sm": 8000.0},
               "rungs": [rung(7, "multiple", "", 2, 4, 16, 8, 2640.0, 3000.0, 8000.0),
                         rung(19, "latency", "1x4B", 1, 4, 0, 8, 2160.0, 3000.0, 8000.0)]}}

H100_LINE = ("Measured on the course's device, an NVIDIA H100 80GB HBM3, on 2026-01-02 (03:04 UTC). "
             "Data: [bench.json](r/bench.json).")


class Tables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        os.mkdir(os.path.join(self.root, "r"))
        for name, doc in {"bench": BENCH, "ops": OPS, "rows": matrix("rows", []),
                          "columns": matrix("columns", [
                              {"shape": [4096, 4096], "op": "sum", "dtype": "float32",
                               "plan": "naive", "deterministic": False,
                               "time": cuda_time(0.08), "gbps": 838.9}]),
                          "axes": AXES, "scaling": SCALING, "latency": LATENCY,
                          "bench20": dict(BENCH, runs=[r for r in BENCH["runs"] if r["n"] == N20],
                                          baselines=BENCH["baselines"][:1]),
                          "bench24": dict(BENCH, runs=[r for r in BENCH["runs"] if r["n"] == N24],
                                          baselines=BENCH["baselines"][1:],
                                          created_utc="2026-01-02T03:40:00Z"),
                          "h200-bench": dict(BENCH, device=H200)}.items():
            with open(os.path.join(self.root, "r", name + ".json"), "w") as f:
                json.dump(doc, f)

    def tearDown(self):
        self.dir.cleanup()

    def render(self, files, md="README.md", **opts):
        return tables.render(self.root, md, files.split(","), opts).split("\n")

    def test_ladder_at_one_size(self):
        self.assertEqual(self.render("r/bench.json", table="ladder", n="2^20"), [
            H100_LINE, "",
            "| lesson | kernel | block | time | GB/s | % of ceiling | x lesson 01 | x CUB |",
            "|---|---|---|---|---|---|---|---|",
            "| 01 | divergent | 256 | 20.00 us | 210 | 25.0 | 1.00 | 0.50 |",
            "| 02 | strided | 256 | 10.00 us | 419 | 50.0 | 2.00 | 1.00 |",
            "| 02 | strided / wide | 256 | 40.00 us | 105 | 12.5 | 0.50 | 0.25 |",
            "| 03 | sequential | 1024 | 8.00 us | 524 | 62.5 | 2.50 | 1.25 |",
            "| - | streaming read (ceiling) | 256 | 5.00 us | 839 | 100.0 | 4.00 | 2.00 |",
            "| - | cub::DeviceReduce::Sum | - | 10.00 us | 419 | 50.0 | 2.00 | 1.00 |"])

    def test_ladder_side_by_side_sizes_and_a_selection(self):
        self.assertEqual(self.render("r/bench.json", md="lessons/x/README.md", table="ladder",
                                     n="2^20,2^24", columns="time,x CUB")[2:], [
            "| lesson | kernel | block | 2^20 time | 2^20 x CUB | 2^24 time | 2^24 x CUB |",
            "|---|---|---|---|---|---|---|",
            "| 01 | divergent | 256 | 20.00 us | 0.50 | 2.000 ms | 0.25 |",
            "| 02 | strided | 256 | 10.00 us | 1.00 | 500.00 us | 1.00 |",
            "| 02 | strided / wide | 256 | 40.00 us | 0.25 | - | - |",
            "| 03 | sequential | 1024/256 | 8.00 us | 1.25 | 250.00 us | 2.00 |",
            "| - | streaming read (ceiling) | 256/1024 | 5.00 us | 2.00 | 400.00 us | 1.25 |",
            "| - | cub::DeviceReduce::Sum | - | 10.00 us | 1.00 | 500.00 us | 1.00 |"])
        # a lesson the file has no run of (yet) is absent; a selection of none of them is refused
        rows = self.render("r/bench.json", table="ladder", n="2^24", lessons="02,19")
        self.assertEqual([r.split(" | ")[1] for r in rows[4:]],
                         ["strided", "streaming read (ceiling)", "cub::DeviceReduce::Sum"])
        with self.assertRaisesRegex(SpanError, "no run of lessons 19"):
            self.render("r/bench.json", table="ladder", n="2^24", lessons="19")
        with self.assertRaisesRegex(SpanError, "no run at n=2\\^28"):
            self.render("r/bench.json", table="ladder", n="2^28")
        self.assertIn("[bench.json](../../r/bench.json)",
                      self.render("r/bench.json", md="lessons/x/README.md", table="ladder",
                                  n="2^20")[0])

    def test_lesson(self):
        self.assertEqual(self.render("r/bench.json", table="lesson", lessons="02",
                                     n="2^20,2^24", versus="01")[2:], [
            "| N | kernel | block | time | GB/s | % of ceiling | x CUB | x lesson 01 |",
            "|---|---|---|---|---|---|---|---|",
            "| 2^20 | strided | 256 | 10.00 us | 419 | 50.0 | 1.00 | 2.00 |",
            "| 2^20 | strided / wide | 256 | 40.00 us | 105 | 12.5 | 0.25 | 0.50 |",
            "| 2^24 | strided | 256 | 500.00 us | 134 | 80.0 | 1.00 | 4.00 |"])
        self.assertEqual(self.render("r/bench.json", table="lesson", lessons="01", n="2^20")[2],
                         "| N | kernel | block | time | GB/s | % of ceiling | x CUB |")

    def test_times(self):
        self.assertEqual(self.render("r/bench.json", table="times", n="2^20,2^24",
                                     kernels="01,02/wide,03")[2:], [
            "| N | 01 divergent | 02 strided / wide | 03 sequential |", "|---|---|---|---|",
            "| 2^20 | 20.00 us | 40.00 us | 8.00 us |", "| 2^24 | 2.000 ms | - | 250.00 us |"])
        self.assertEqual(self.render("r/bench.json", table="times", n="2^20", kernels="01,03",
                                     labels="the first, naive|third")[2],
                         "| N | the first, naive | third |")

    def test_values(self):
        b = tables.bench.load(self.root, ["r/bench.json"])
        for opts, want in [({"value": "time", "n": "2^24", "lesson": "01"}, "2.000 ms"),
                           ({"value": "ratio", "n": "2^24", "lesson": "03", "over": "01"}, "8.00"),
                           ({"value": "pct", "n": "2^20", "lesson": "02/wide"}, "12.5"),
                           ({"value": "xcub", "n": "2^20", "lesson": "03"}, "1.25"),
                           ({"value": "gbps", "n": "2^20", "lesson": "02"}, "419"),
                           ({"value": "min", "n": "2^20", "lesson": "02/wide"}, "35.10 us"),
                           ({"value": "max", "n": "2^20", "lesson": "02/wide"}, "44.90 us"),
                           ({"value": "tolerance", "n": "2^20", "lesson": "01"}, "12"),
                           ({"value": "time", "n": "2^24", "lesson": "ceiling"}, "400.00 us"),
                           ({"value": "pct", "n": "2^20", "lesson": "cub"}, "50.0"),
                           ({"value": "calls", "n": "2^20", "lesson": "02/wide"}, "7"),
                           ({"value": "calls", "n": "2^20", "lesson": "ceiling"}, "17"),
                           ({"value": "calls", "n": "2^24", "lesson": "cub"}, "9")]:
            self.assertEqual(tables.bench.value(b, opts), want, opts)
        with self.assertRaisesRegex(SpanError, "no timed run of lesson 04"):
            tables.bench.value(b, {"value": "time", "n": "2^20", "lesson": "04"})

    def test_arithmetic_values(self):
        # what a run added up, timed or not: 2449.94189453125 is float32 0x45191f12 exactly
        doc = dict(BENCH, runs=[dict(run(2, "strided", N24, 0.5), result=2449.94189453125,
                                     reference=2449.9421375393867),
                                {"lesson": 3, "slug": "sequential", "variant": "", "n": N24,
                                 "block": 256, "result": 2449.942626953125,
                                 "reference": 2449.9421375393867}])
        with open(os.path.join(self.root, "r", "sums.json"), "w") as f:
            json.dump(doc, f)
        b = tables.bench.load(self.root, ["r/sums.json"])
        for opts, want in [
                ({"lesson": "02"}, ("2449.94189", "0x45191f12", "2449.942138", "0.000243")),
                ({"lesson": "03"}, ("2449.94263", "0x45191f15", "2449.942138", "0.000489"))]:
            got = tuple(tables.bench.value(b, dict(opts, value=k, n="2^24"))
                        for k in ("result", "bits", "reference", "error"))
            self.assertEqual(got, want, opts)
        with self.assertRaisesRegex(SpanError, "no timed run of lesson 03"):
            tables.bench.value(b, {"value": "time", "n": "2^24", "lesson": "03"})

    def test_sweep(self):
        def summed(r, result):
            return dict(r, result=result, reference=1.25)
        doc = dict(BENCH, runs=[
            summed(run(7, "mept", N20, 0.02, variant="2_per_thread"), 1.5),
            summed(run(7, "mept", N20, 0.01, variant="64_per_thread"), 1.0),
            summed(run(7, "mept", N20, 0.008), 1.25),
            summed(run(7, "mept", N24, 0.5, variant="2_per_thread"), 1.25),
            summed(run(8, "shuffle", N20, 0.007), 1.25)])
        with open(os.path.join(self.root, "r", "sweep.json"), "w") as f:
            json.dump(doc, f)
        # threads: ceil(n / (K * 256)) blocks of 256; chain: K + 8 + 1 a pass (2^20 at K = 2: three
        # passes, 2^20 -> 2048 -> 4 -> 1; at K = 64: two, 2^20 -> 64 -> 1)
        self.assertEqual(self.render("r/sweep.json", table="sweep", n="2^20,2^24",
                                     figures="time,pct,chain")[2:], [
            "| inputs a thread | 2^20 threads | 2^20 time | 2^20 % of ceiling | 2^20 longest chain "
            "| 2^24 threads | 2^24 time | 2^24 % of ceiling | 2^24 longest chain |",
            "|---|---|---|---|---|---|---|---|---|",
            "| 2 | 2^19 | 20.00 us | 25.0 | 33 | 2^23 | 500.00 us | 80.0 | 33 |",
            "| 64 | 2^14 | 10.00 us | 50.0 | 146 | - | - | - | - |",
            "| lesson 07's grid | - | 8.00 us | 62.5 | - | - | - | - | - |"])
        self.assertEqual(self.render("r/sweep.json", table="sweep", n="2^20",
                                     figures="error,bound")[4:6], [
            "| 2 | 2^19 | 0.25 | 12.4 |", "| 64 | 2^14 | 0.25 | 12.4 |"])
        self.assertEqual([r.split(" | ")[0] for r in self.render(
            "r/sweep.json", table="sweep", n="2^20", inputs="64")[4:]],
            ["| 64", "| lesson 07's grid"])
        with self.assertRaisesRegex(SpanError, "no run at 8 inputs a thread"):
            self.render("r/sweep.json", table="sweep", n="2^20", inputs="2,8")
        with self.assertRaisesRegex(SpanError, "figures: 'speed' is not one of"):
            self.render("r/sweep.json", table="sweep", n="2^20", figures="speed")
        with self.assertRaisesRegex(SpanError, "no run of lesson 07 at n=2\\^28"):
            self.render("r/sweep.json", table="sweep", n="2^28")

    def test_across(self):
        self.assertEqual(self.render("r/bench.json", table="across", n="2^20,2^24",
                                     kernels="01,02/wide,03", figure="time"), [
            H100_LINE, "",
            "| kernel | 2^20 | 2^24 |", "|---|---|---|",
            "| 01 divergent | 20.00 us | 2.000 ms |",
            "| 02 strided / wide | 40.00 us | - |",
            "| 03 sequential | 8.00 us | 250.00 us |",
            "| streaming read (ceiling) | 5.00 us | 400.00 us |",
            "| cub::DeviceReduce::Sum | 10.00 us | 500.00 us |"])
        # x lesson 01, its rows named by labels=, the baselines' rows divided too
        self.assertEqual(self.render("r/bench.json", table="across", n="2^20,2^24",
                                     kernels="02,03", figure="ratio", over="01",
                                     labels="two|three")[2:], [
            "| kernel | 2^20 | 2^24 |", "|---|---|---|",
            "| two | 2.00 | 4.00 |", "| three | 2.50 | 8.00 |",
            "| streaming read (ceiling) | 4.00 | 5.00 |",
            "| cub::DeviceReduce::Sum | 2.00 | 4.00 |"])
        self.assertEqual(self.render("r/bench.json", table="across", n="2^20,2^24",
                                     kernels="03", figure="pct")[4:], [
            "| 03 sequential | 62.5 | 160.0 |", "| streaming read (ceiling) | 100.0 | 100.0 |",
            "| cub::DeviceReduce::Sum | 50.0 | 80.0 |"])
        self.assertEqual(self.render("r/bench.json", table="across", n="2^24", kernels="03",
                                     figure="xcub", baselines="no")[2:],
                         ["| kernel | 2^24 |", "|---|---|", "| 03 sequential | 2.00 |"])
        # one file per size, of one device, in one table, the day's times as a range
        two = self.render("r/bench20.json,r/bench24.json", table="across", n="2^20,2^24",
                          kernels="03", figure="time")
        self.assertEqual(two[0], "Measured on the course's device, an NVIDIA H100 80GB HBM3, on "
                         "2026-01-02 (03:04 to 03:40 UTC). Data: [bench20.json](r/bench20.json), "
                         "[bench24.json](r/bench24.json).")
        self.assertEqual(two[4], "| 03 sequential | 8.00 us | 250.00 us |")
        for opts, error in [({"kernels": "03", "figure": "ratio"}, "figure=ratio needs over="),
                            ({"kernels": "03", "figure": "pie"}, "figure='pie': one of"),
                            ({"kernels": "04", "figure": "time"}, "no run of lesson 4"),
                            ({"kernels": "03", "figure": "time", "labels": "a|b"},
                             "labels= names 2 rows"),
                            ({"figure": "time"}, "needs kernels=")]:
            with self.assertRaisesRegex(SpanError, error):
                self.render("r/bench.json", table="across", n="2^20", **opts)

    def test_dates(self):
        d = tables.common.dates_text
        self.assertEqual(d(["2026-01-02T03:04:05Z"]), ", on 2026-01-02 (03:04 UTC)")
        self.assertEqual(d(["2026-01-02T03:09:00Z", "2026-01-02T03:04:05Z", "2026-01-02T03:09:59Z"]),
                         ", on 2026-01-02 (03:04 to 03:09 UTC)")
        self.assertEqual(d(["2026-01-02T03:04:05Z", "2026-01-03T00:00:00Z"]),
                         ", on 2026-01-02 (03:04 UTC) and on 2026-01-03 (00:00 UTC)")
        self.assertEqual(d([None]), "; the file records no date")
        self.assertEqual(d(["2026-01-02T03:04:05Z", None]), "; not every file records its date")

    def test_one_device_per_table(self):
        with self.assertRaisesRegex(SpanError, "one device per table.*H100.*H200"):
            self.render("r/bench.json,r/h200-bench.json", table="ladder", n="2^20")
        # two files of one device: one table, both files named
        line = self.render("r/bench.json,r/bench.json", table="ladder", n="2^20")[0]
        self.assertIn("[bench.json](r/bench.json), [bench.json](r/bench.json)", line)

    def test_ops(self):
        self.assertEqual(self.render("r/ops.json", table="ops"), [
            "Measured on **a second device**, an NVIDIA H200 (the course's device is the H100); "
            "the file records no date. Data: [ops.json](r/ops.json).", "",
            "| op | float32 | float16 |", "|---|---|---|",
            "| sum | 1000 GB/s, 1.00x | 500, 1.50x |", "| max | 80.0%, 2.00x | 80.0% |"])

    def test_rows_and_columns(self):
        self.assertEqual(self.render("r/rows.json", table="rows")[2:], [
            "| shape | plan | time | GB/s | x CUB | x torch | x best |",
            "|---|---|---|---|---|---|---|",
            "| 4096x4096 | a block a row | 20.00 us | 3355 | 1.07 | 1.50 | 1.07 |",
            "| 2^20x8 | 16 rows a warp | 10.00 us | 3355 | - | 2.00 | 2.00 |"])
        self.assertEqual(self.render("r/columns.json", table="columns")[2:], [
            "| shape | plan | time | GB/s | naive atomic | x CUB | x torch | x best |",
            "|---|---|---|---|---|---|---|---|",
            "| 4096x4096 | a block a row | 20.00 us | 3355 | 80.00 us | 1.07 | 1.50 | 1.07 |",
            "| 2^20x8 | 16 rows a warp | 10.00 us | 3355 | - | - | 2.00 | 2.00 |"])
        with self.assertRaisesRegex(SpanError, "a table of rows, not of columns"):
            self.render("r/rows.json", table="columns")

    def test_axes(self):
        self.assertEqual(self.render("r/axes.json", table="axes")[2:], [
            "| axes | plan | time | GB/s | x CUB | x torch | x best |",
            "|---|---|---|---|---|---|---|",
            "| {0,2} | strided, kept innermost, split 33 ways | 70.00 us | 3835 | 100.00 | 1.11 "
            "| 1.11 |",
            "| {3} | rows | 80.00 us | 3355 | - | - | - |"])

    def test_scaling(self):
        self.assertEqual(self.render("r/scaling.json", table="scaling", gpus="1,2,4"), [
            "Measured on **a second device**, 2 x NVIDIA H200 (the course's device is the H100), "
            "on 2026-02-03 (04:05 UTC). Data: [scaling.json](r/scaling.json).", "",
            "| GPUs | N per GPU | total (ms) | slowest local (ms) | collective alone (ms) "
            "| aggregate GB/s | efficiency |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            "| 1 | 2^30 | 1.0000 | 0.9900 | 0.0070 | 4295.0 | 1.000 |",
            "| 2 | 2^30 | 1.0000 | 0.9900 | 0.0160 | 8589.9 | 1.000 |",
            "| 4 | not run | not run | not run | not run | not run | not run |"])

    def test_latency(self):
        head = ["Measured on the course's device, an NVIDIA H100 80GB HBM3, on 2026-01-02 "
                "(03:04 UTC). Data: [latency.json](r/latency.json).", "",
                "| N | kernel | loads a thread (source) | bytes a load | registers | blocks/SM "
                "| in flight/SM | need/SM | % of need | GB/s | % of ceiling |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        self.assertEqual(self.render("r/latency.json", table="latency"), head + [
            "| 2^26 | 07 multiple | 2 | 4 | 16 | 8 | 16 KiB | 7.812 KiB | 205 | 2640 | 88.0 |",
            "| 2^26 | 19 latency / 1x4B | 1 | 4 | - | 8 | 8 KiB | 7.812 KiB | 102 | 2160 | 72.0 |"])
        self.assertEqual(self.render("r/latency.json", table="latency", variants="1x4B")[-1],
                         "| 2^26 | 19 latency / 1x4B | 1 | 4 | - | 8 | 8 KiB | 7.812 KiB | 102 "
                         "| 2160 | 72.0 |")
        with self.assertRaisesRegex(SpanError, "no rung matches lessons=11"):
            self.render("r/latency.json", table="latency", lessons="11")
        with self.assertRaisesRegex(SpanError, "no latency record"):
            self.render("r/bench24.json", table="latency")

    def test_bad_spans(self):
        with self.assertRaisesRegex(SpanError, "table=pie: one of"):
            self.render("r/bench.json", table="pie")
        with self.assertRaisesRegex(SpanError, "schema 'reducelab.ops'.*reducelab.results"):
            self.render("r/ops.json", table="ladder", n="2^20")
        with self.assertRaisesRegex(SpanError, "needs table=KIND or value=KIND"):
            self.render("r/bench.json")


if __name__ == "__main__":
    unittest.main()

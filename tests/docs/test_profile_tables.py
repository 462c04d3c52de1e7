"""The profile's and the timeline's spans (table=profile, value=profile, table=timeline,
value=timeline) rendered from small synthetic records, against the exact rows and numbers worked
out by hand from the values below (lesson 02's and 11's first launches are the H100's counters
from tests/host/fixtures); and the refusals: two devices in one table, another schema, a value
that more than one record could give, a counter ncu gave no value for.
With REDUCELAB (the runner's path), also: the tables' cells are the ones `reducelab profile --from`
and `reducelab timeline --from` print for the same files.
    python3 tests/docs/test_profile_tables.py [REDUCELAB]"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402
from tables.common import SpanError, kernel_identifier  # noqa: E402

RUNNER = sys.argv.pop(1) if len(sys.argv) > 1 else None
H100 = {"name": "NVIDIA H100 80GB HBM3", "simulated": False, "sm_count": 132}
H200 = {"name": "NVIDIA H200", "simulated": False, "sm_count": 132}
N10, N20, N24 = 1 << 10, 1 << 20, 1 << 24
LIMITS_256 = {"registers": 16, "shared_mem": 16, "blocks": 32, "warps": 8}


def stalls(*pairs):
    return [{"reason": r, "warps_per_issue": w} for r, w in pairs]


def counters(us, dram, achieved, limiter, limits, registers, ld, st, threads, instructions, top,
             theoretical=100.0):
    """ld and st: (requests, bank conflicts, wavefronts); the per-request figures are derived as
    the runner derives them (null without requests)."""
    c = {"duration_us": us, "dram_pct_of_peak": dram, "dram_bytes_read": 4197632,
         "achieved_occupancy_pct": achieved, "theoretical_occupancy_pct": theoretical,
         "occupancy_limiter": limiter, "blocks_per_sm_limit": limits,
         "registers_per_thread": registers, "threads_per_instruction": threads,
         "instructions": instructions, "top_stalls": top}
    for op, (requests, conflicts, wavefronts) in (("ld", ld), ("st", st)):
        c.update({f"shared_{op}_requests": requests, f"shared_{op}_bank_conflicts": conflicts,
                  f"shared_{op}_wavefronts": wavefronts,
                  f"shared_{op}_conflicts_per_request": conflicts / requests if requests else None,
                  f"shared_{op}_wavefronts_per_request": wavefronts / requests if requests else None})
    return c


def kernel(lesson, slug, n, block, launch, name, grid, threads, c, variant=""):
    return {"lesson": lesson, "slug": slug, "variant": variant, "n": n, "block": block,
            "launch": launch, "kernel": name, "grid": grid, "block_threads": threads, "counters": c}


CUB_MAIN = "void cub::CUB_300000_SM_900::detail::reduce::DeviceReduceKernel<cub::P, const float*, " \
    "float*>(const float*, float*, long)"
PROFILE = {
    "schema": "reducelab.profile", "version": 1, "created_utc": "2026-03-04T05:06:07Z",
    "tool": "ncu 2025.3.0.0 (build 1)", "device": H100, "metrics": {},
    "ncu_options": "--csv --page raw --print-units base --clock-control base --cache-control all",
    "kernels": [
        kernel(2, "interleaved_strided", N20, 256, 0, "interleaved_strided<NoTrace>", 4096, 256,
               counters(10.848, 11.59, 84.08, "warps", LIMITS_256, 16, (528384, 292533, 394933),
                        (294912, 143360, 225280), 31.69, 4567040,
                        stalls(("short_scoreboard", 5.87), ("long_scoreboard", 4.05),
                               ("barrier", 3.16)))),
        kernel(2, "interleaved_strided", N20, 256, 1, "interleaved_strided<NoTrace>", 16, 256,
               counters(3.456, 0.17, 11.96, "warps", LIMITS_256, 16, (2064, 1120, 1520),
                        (1152, 560, 880), 31.69, 17840,
                        stalls(("long_scoreboard", 3.68), ("short_scoreboard", 2.40),
                               ("barrier", 1.63)))),
        kernel(11, "single_pass", N20, 1024, 0, "single_pass<1024, 4, 0, NoTrace>", 64, 1024,
               counters(6.816, 18.43, 49.56, "registers",
                        {"registers": 2, "shared_mem": 6, "blocks": 32, "warps": 2}, 32,
                        (2113, 0, 2113), (2144, 0, 2144), 31.89, 340712,
                        stalls(("barrier", 10.64), ("long_scoreboard", 10.20),
                               ("short_scoreboard", 1.02)))),
        kernel(11, "single_pass", N20, 1024, 0, "single_pass_atomic<1024, NoTrace>", 64, 1024,
               counters(4.736, 26.70, 46.03, "registers",
                        {"registers": 2, "shared_mem": 7, "blocks": 32, "warps": 2}, 32,
                        (64, 0, 64), (2048, 0, 2048), 31.98, 279808,
                        stalls(("long_scoreboard", 13.76), ("barrier", 4.17),
                               ("short_scoreboard", 0.86))), variant="atomic_finish"),
        kernel(11, "single_pass", N20, 256, 0, "single_pass<256, 4, 0, NoTrace>", 256, 256,
               counters(7.004, 17.96, 88.5, "warps", LIMITS_256, 32, (1000, 0, 1000),
                        (1000, 0, 1000), 32.0, 300000, stalls(("long_scoreboard", 20.04)))),
        kernel(12, "versus_cub", N20, 256, 0, CUB_MAIN, 264, 256,
               dict(counters(5.5, None, 60.0, None, {"registers": None, "shared_mem": None,
                                                    "blocks": None, "warps": None}, None,
                             (0, 0, 0), (0, 0, 0), 32.0, 1000, []), theoretical_occupancy_pct=None)),
        kernel(12, "versus_cub", N20, 256, 1, "cub::detail::reduce::DeviceReduceSingleTileKernel<P>",
               1, 256, counters(2.25, 0.01, 12.0, "warps", LIMITS_256, 24, (8, 0, 8), (8, 0, 8),
                                31.5, 900, stalls(("barrier", 2.5)))),
        kernel(2, "interleaved_strided", N24, 256, 0, "interleaved_strided<NoTrace>", 65536, 256,
               counters(112.5, 20.25, 90.0, "warps", LIMITS_256, 16, (8454144, 4680528, 6318928),
                        (4718592, 2293760, 3604480), 31.69, 73072640,
                        stalls(("short_scoreboard", 6.0)))),
    ]}


def activity(kind, name, us):
    return {"kind": kind, "name": name, "us": us}


def api(*calls):
    return [{"name": n, "calls": k, "us": us} for n, k, us in calls]


def entry(lesson, slug, n, block, first, activities, gaps, host, wall, total, calls, variant=""):
    return {"lesson": lesson, "slug": slug, "variant": variant, "n": n, "block": block,
            "calls": 20, "calls_like_median": 19, "first_api_to_first_kernel_us": first,
            "activities": activities, "gaps_us": gaps, "host_us": host, "host_wall_us": wall,
            "total_us": total, "api": calls}


TIMELINE = {
    "schema": "reducelab.timeline", "version": 1, "created_utc": "2026-03-04T06:07:08Z",
    "tool": "CUPTI API version 130000", "device": H100,
    "method": {"calls": 20, "statistic": "median"},
    "entries": [
        entry(10, "multi_block_two_kernel", N10, 256, 5.0,
              [activity("kernel", "block_partials<256, NoTrace>", 2.1),
               activity("kernel", "sum_partials<NoTrace>", 1.876)], [1.004], 0.4, 7.25, 10.0,
              api(("cudaLaunchKernel", 2, 3.0), ("cudaStreamSynchronize", 1, 4.0))),
        entry(10, "multi_block_two_kernel", N10, 256, 4.5,
              [activity("kernel", "block_partials<256, NoTrace>", 2.0),
               activity("memcpy", "memcpy DtoH", 1.0), activity("memcpy", "memcpy HtoD", 1.0)],
              [5.0, 12.5], 2.4, 19.0, 21.0,
              api(("cudaLaunchKernel", 1, 2.5), ("cudaMemcpyAsync", 2, 6.0),
                  ("cudaStreamSynchronize", 2, 7.5)), variant="host_finish"),
        entry(12, "versus_cub", N20, 256, 7.9,
              [activity("kernel", CUB_MAIN, 6.5),
               activity("kernel", "cub::detail::reduce::DeviceReduceSingleTileKernel<P>", 1.75)],
              [1.3], 3.2, 9.1, 17.45,
              api(("cudaGetDevice", 3, 0.3), ("cudaLaunchKernel", 2, 4.0),
                  ("cudaStreamSynchronize", 1, 8.0))),
        entry(11, "single_pass", N20, 1024, 4.25, [activity("kernel", "single_pass<1024, 4, 0, "
                                                            "NoTrace>", 5.9)], [], 0.1, 6.6, 10.2,
              api(("cudaLaunchKernel", 1, 2.0), ("cudaStreamSynchronize", 1, 8.0))),
        entry(11, "single_pass", N20, 1024, 3.0,
              [activity("memset", "memset", 1.2),
               activity("kernel", "single_pass_atomic<1024, NoTrace>", 6.0)], [0.8], 0.2, 8.0, 11.0,
              api(("cudaMemsetAsync", 1, 1.5), ("cudaLaunchKernel", 1, 2.0),
                  ("cudaStreamSynchronize", 1, 8.0)), variant="atomic_finish"),
        entry(11, "single_pass", N20, 256, 4.0, [activity("kernel", "single_pass<256, 4, 0, "
                                                           "NoTrace>", 6.25)], [], 0.1, 6.0, 10.5,
              api(("cudaLaunchKernel", 1, 2.0), ("cudaStreamSynchronize", 1, 8.0))),
    ]}

PROFILE_LINE = ("Measured on the course's device, an NVIDIA H100 80GB HBM3, on 2026-03-04 (05:06 UTC). "
                "Data: [profile.json](../../p/profile.json). Counted by ncu 2025.3.0.0 (build 1), "
                "clocks locked to base, caches flushed before every replay pass.")
TIMELINE_LINE = ("Measured on the course's device, an NVIDIA H100 80GB HBM3, on 2026-03-04 (06:07 UTC). "
                 "Data: [timeline.json](p/timeline.json). Recorded by CUPTI API version 130000; each "
                 "figure the median of 20 calls.")


class Spans(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        os.mkdir(os.path.join(self.root, "p"))
        for name, doc in {"profile": PROFILE, "timeline": TIMELINE,
                          "h200-profile": dict(PROFILE, device=H200),
                          "h200-timeline": dict(TIMELINE, device=H200),
                          "other-profile": {k: v for k, v in PROFILE.items()
                                            if k not in ("tool", "created_utc")} |
                          {"ncu_options": "--csv --clock-control none"},
                          "bench": {"schema": "reducelab.results", "version": 1, "device": H100,
                                    "runs": []}}.items():
            with open(os.path.join(self.root, "p", name + ".json"), "w") as f:
                json.dump(doc, f)

    def tearDown(self):
        self.dir.cleanup()

    def render(self, files, md="README.md", **opts):
        return tables.render(self.root, md, files.split(","), opts).split("\n")

    def profile(self, **opts):
        return tables.render(self.root, "README.md", ["p/profile.json"],
                             dict(opts, value="profile"))

    def timeline(self, **opts):
        return tables.render(self.root, "README.md", ["p/timeline.json"],
                             dict(opts, value="timeline"))


class ProfileTable(Spans):
    def test_the_runners_columns(self):
        self.assertEqual(self.render("p/profile.json", md="lessons/x/README.md", table="profile",
                                     lessons="02,11", n="2^20"), [
            PROFILE_LINE, "",
            "| lesson | variant | n | kernel | grid x block | time | DRAM % | occupancy % "
            "| limiter (blocks/SM) | conflicts/request ld / st | threads/inst "
            "| top stall (warps/issue) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
            # 292533 / 528384 = 0.554, 143360 / 294912 = 0.486
            "| 02 | - | 2^20 | #0 interleaved_strided | 4096 x 256 | 10.85 us | 11.6 | 84.1 of 100 "
            "| warps (8) | 0.55 / 0.49 | 31.7 | short_scoreboard 5.9 |",
            # 1120 / 2064 = 0.543, 560 / 1152 = 0.486
            "| 02 | - | 2^20 | #1 interleaved_strided | 16 x 256 | 3.46 us | 0.2 | 12.0 of 100 "
            "| warps (8) | 0.54 / 0.49 | 31.7 | long_scoreboard 3.7 |",
            # registers and warps both allow 2 blocks: the first of the order, registers
            "| 11 | - | 2^20 | #0 single_pass | 64 x 1024 | 6.82 us | 18.4 | 49.6 of 100 "
            "| registers (2) | 0.00 / 0.00 | 31.9 | barrier 10.6 |",
            "| 11 | atomic_finish | 2^20 | #0 single_pass_atomic | 64 x 1024 | 4.74 us | 26.7 "
            "| 46.0 of 100 | registers (2) | 0.00 / 0.00 | 32.0 | long_scoreboard 13.8 |",
            "| 11 | - | 2^20 | #0 single_pass | 256 x 256 | 7.00 us | 18.0 | 88.5 of 100 "
            "| warps (8) | 0.00 / 0.00 | 32.0 | long_scoreboard 20.0 |"])

    def test_chosen_columns_and_what_is_null(self):
        self.assertEqual(self.render("p/profile.json", table="profile", lessons="11/atomic_finish,12",
                                     columns="kernel,registers,wavefronts,limiter,"
                                             "occupancy %,top stall (warps/issue),dram")[2:], [
            "| lesson | variant | n | kernel | registers | wavefronts/request ld / st "
            "| limiter (blocks/SM) | occupancy % | top stall (warps/issue) | DRAM % |",
            "|---|---|---|---|---|---|---|---|---|---|",
            "| 11 | atomic_finish | 2^20 | #0 single_pass_atomic | 32 | 1.00 / 1.00 | registers (2) "
            "| 46.0 of 100 | long_scoreboard 13.8 | 26.7 |",
            # ncu gave no value, and no shared-memory request: '-'
            "| 12 | - | 2^20 | #0 DeviceReduceKernel | - | - / - | - | 60.0 of - | - | - |",
            "| 12 | - | 2^20 | #1 DeviceReduceSingleTileKernel | 24 | 1.00 / 1.00 | warps (8) "
            "| 12.0 of 100 | barrier 2.5 | 0.0 |"])

    def test_selections(self):
        def kernels(**opts):
            rows = self.render("p/profile.json", table="profile", columns="kernel", **opts)[4:]
            return [f"{c[3]} {c[2]}" for c in (r.strip("| ").split(" | ") for r in rows)]
        self.assertEqual(kernels(launch="1"), ["#1 interleaved_strided 2^20",
                                               "#1 DeviceReduceSingleTileKernel 2^20"])
        self.assertEqual(kernels(lessons="11", variants="-", block="1024"), ["#0 single_pass 2^20"])
        self.assertEqual(kernels(n="2^24"), ["#0 interleaved_strided 2^24"])
        self.assertEqual(kernels(lessons="02", n="2^24,2^20", launch="0"),
                         ["#0 interleaved_strided 2^20", "#0 interleaved_strided 2^24"])
        self.assertEqual(len(kernels()), 8)
        with self.assertRaisesRegex(SpanError, "no kernel record matches lessons=05 n=2\\^20"):
            self.render("p/profile.json", table="profile", lessons="05", n="2^20")
        with self.assertRaisesRegex(SpanError, "columns: 'ipc' is not one of kernel, grid"):
            self.render("p/profile.json", table="profile", columns="kernel,ipc")
        with self.assertRaisesRegex(SpanError, "block=2x: whole numbers"):
            self.render("p/profile.json", table="profile", block="2x")

    def test_one_device_and_one_schema(self):
        with self.assertRaisesRegex(SpanError, "one device per table.*H100.*H200"):
            self.render("p/profile.json,p/h200-profile.json", table="profile")
        with self.assertRaisesRegex(SpanError, "schema 'reducelab.results'.*reducelab.profile"):
            self.render("p/bench.json", table="profile")
        with self.assertRaisesRegex(SpanError, "schema 'reducelab.timeline'.*reducelab.profile"):
            tables.render(self.root, "README.md", ["p/timeline.json"],
                          {"value": "profile", "lesson": "02", "n": "2^20", "counter": "grid"})
        line = self.render("p/h200-profile.json", table="profile", lessons="12")[0]
        self.assertTrue(line.startswith("Measured on **a second device**, an NVIDIA H200"), line)
        # options other than the course's are named as they are; missing ones say so
        line = self.render("p/other-profile.json", table="profile", lessons="12")[0]
        self.assertTrue(line.endswith("the file records no date. Data: [other-profile.json]"
                                      "(p/other-profile.json). Counted by an unrecorded ncu, "
                                      "--clock-control none, --cache-control unrecorded."), line)


class ProfileValue(Spans):
    def test_counters(self):
        at = {"lesson": "02", "n": "2^20", "launch": "0"}
        for opts, want in [
                (dict(at, counter="duration_us"), "10.85 us"),
                (dict(at, counter="duration_us", digits="1"), "10.8 us"),
                (dict(at, counter="duration_us", bare=None), "10.85"),
                (dict(at, counter="dram_pct_of_peak"), "11.6"),
                (dict(at, counter="achieved_occupancy_pct", digits="0"), "84"),
                (dict(at, counter="theoretical_occupancy_pct"), "100"),
                (dict(at, counter="shared_ld_conflicts_per_request"), "0.55"),
                (dict(at, counter="shared_ld_wavefronts_per_request"), "0.75"),  # 394933 / 528384
                (dict(at, counter="shared_st_wavefronts_per_request", digits="3"), "0.764"),
                (dict(at, counter="threads_per_instruction"), "31.7"),
                (dict(at, counter="registers_per_thread"), "16"),
                (dict(at, counter="shared_ld_wavefronts"), "394933"),
                (dict(at, counter="occupancy_limiter"), "warps"),
                (dict(at, counter="limiter"), "warps (8)"),
                (dict(at, counter="blocks_per_sm_limit.registers"), "16"),
                (dict(at, counter="top_stall"), "short_scoreboard 5.9"),
                (dict(at, counter="top_stall", digits="2"), "short_scoreboard 5.87"),
                (dict(at, counter="top_stalls"),
                 "short_scoreboard 5.9, long_scoreboard 4.0, barrier 3.2"),  # 4.05 is 4.04999...
                (dict(at, counter="stall:long_scoreboard", digits="2"), "4.05"),
                (dict(at, counter="grid"), "4096"),
                (dict(at, counter="block_threads"), "256"),
                (dict(at, counter="kernel"), "interleaved_strided"),
                # per block: 394933 / 4096 = 96.42; per warp: / (4096 * 256 / 32) = 12.05
                (dict(at, counter="shared_ld_wavefronts", per="block"), "96.4"),
                (dict(at, counter="shared_ld_wavefronts", per="block", digits="2"), "96.42"),
                (dict(at, counter="instructions", per="warp"), "139.4"),  # 4567040 / 32768
                # loads and stores: (394933 + 225280) / 4096 = 151.4; / (528384 + 294912) = 0.75
                (dict(at, counter="shared_wavefronts", per="block"), "151.4"),
                (dict(at, counter="shared_wavefronts"), "620213"),
                (dict(at, counter="shared_wavefronts_per_request", digits="3"), "0.753"),
                (dict(at, counter="shared_conflicts_per_request"), "0.53"),  # 435893 / 823296
                # the second launch, 16 blocks: 1520 / 16 = 95, one 256-thread tree's wavefronts
                (dict(at, launch="1", counter="shared_ld_wavefronts", per="block"), "95.0"),
                ({"lesson": "02", "n": "2^20", "counter": "launches"}, "2"),
                ({"lesson": "12", "n": "2^20", "counter": "launches"}, "2"),
                ({"lesson": "11", "n": "2^20", "block": "1024", "counter": "launches"}, "1"),
                ({"lesson": "11/atomic_finish", "n": "2^20", "counter": "stall:long_scoreboard"},
                 "13.8"),
                ({"lesson": "11", "variant": "atomic_finish", "n": "2^20", "counter": "kernel"},
                 "single_pass_atomic"),
                ({"lesson": "11", "n": "2^20", "block": "1024", "counter": "top_stall"},
                 "barrier 10.6"),
                ({"lesson": "12", "n": "2^20", "launch": "0", "counter": "kernel"},
                 "DeviceReduceKernel"),
                ({"lesson": "02", "n": "2^24", "counter": "dram_pct_of_peak", "digits": "2"},
                 "20.25")]:
            self.assertEqual(self.profile(**opts), want, opts)

    def test_refusals(self):
        for opts, error in [
                ({"lesson": "11", "n": "2^20", "counter": "grid"},
                 "more than one kernel record matches \\(2\\): say block= \\(1024, 256\\)"),
                ({"lesson": "02", "n": "2^20", "counter": "grid"},
                 "more than one kernel record matches \\(2\\): say launch= \\(0, 1\\)"),
                ({"lesson": "12", "n": "2^20", "launch": "0", "counter": "dram_pct_of_peak"},
                 "lesson 12 at n=2\\^20, launch 0: ncu gave no value for dram_pct_of_peak"),
                ({"lesson": "12", "n": "2^20", "launch": "0", "counter": "top_stall"},
                 "ncu gave no value for any stall"),
                ({"lesson": "12", "n": "2^20", "launch": "0", "counter": "limiter"},
                 "ncu gave no value for the occupancy limits"),
                ({"lesson": "12", "n": "2^20", "launch": "0",
                  "counter": "shared_ld_conflicts_per_request"},
                 "no value for shared_ld_conflicts_per_request"),
                ({"lesson": "12", "n": "2^20", "launch": "0",
                  "counter": "shared_wavefronts_per_request"},
                 "no value for shared_wavefronts_per_request"),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "stall:membar"},
                 "membar is not among the stalls recorded \\(the three largest: short_scoreboard, "
                 "long_scoreboard, barrier\\)"),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "blocks_per_sm_limit.x"},
                 "one of blocks_per_sm_limit.registers, blocks_per_sm_limit.shared_mem, "),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "ipc"},
                 "counter=ipc: not a counter of the record"),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "duration_us",
                  "per": "block"}, "per=block: per=block or per=warp, of a count"),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "instructions",
                  "per": "sm"}, "per=sm: per=block or per=warp"),
                ({"lesson": "02", "n": "2^20", "launch": "0"}, "value=profile needs counter="),
                ({"lesson": "02", "n": "2^20", "launch": "0", "counter": "grid", "digits": "x"},
                 "digits=x: a whole number"),
                ({"lesson": "02", "counter": "grid"}, "needs lesson= and n="),
                ({"lesson": "02", "n": "2^20", "launch": "2", "counter": "grid"},
                 "no kernel record of lesson 02 at n=2\\^20 launch=2"),
                ({"lesson": "03", "n": "2^20", "counter": "launches"},
                 "no profiled call of lesson 03")]:
            with self.assertRaisesRegex(SpanError, error, msg=opts):
                self.profile(**opts)


class TimelineTable(Spans):
    def test_the_runners_columns(self):
        self.assertEqual(self.render("p/timeline.json", table="timeline", lessons="10"), [
            TIMELINE_LINE, "",
            "| lesson | variant | block | n | first API -> kernel | device activities (us) "
            "| gaps (us) | host code | host wall | total | API calls |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            "| 10 | - | 256 | 2^10 | 5.00 us | block_partials 2.10; sum_partials 1.88 | 1.00 "
            "| 0.40 us | 7.25 us | 10.00 us | 3 |",
            "| 10 | host_finish | 256 | 2^10 | 4.50 us | block_partials 2.00; memcpy DtoH 1.00; "
            "memcpy HtoD 1.00 | 5.00; 12.50 | 2.40 us | 19.00 us | 21.00 us | 5 |"])

    def test_chosen_columns_and_selections(self):
        self.assertEqual(self.render("p/timeline.json", table="timeline", n="2^20", block="1024",
                                     columns="activities,gaps,total")[2:], [
            "| lesson | variant | block | n | device activities (us) | gaps (us) | total |",
            "|---|---|---|---|---|---|---|",
            "| 11 | - | 1024 | 2^20 | single_pass 5.90 | - | 10.20 us |",
            "| 11 | atomic_finish | 1024 | 2^20 | memset 1.20; single_pass_atomic 6.00 | 0.80 "
            "| 11.00 us |"])
        self.assertEqual(self.render("p/timeline.json", table="timeline", lessons="12,10/host_finish",
                                     columns="first API -> kernel,api")[4:], [
            "| 10 | host_finish | 256 | 2^10 | 4.50 us | 5 |",
            "| 12 | - | 256 | 2^20 | 7.90 us | 6 |"])
        self.assertEqual(len(self.render("p/timeline.json", table="timeline", variants="-")), 8)
        with self.assertRaisesRegex(SpanError, "no timeline entry matches lessons=07"):
            self.render("p/timeline.json", table="timeline", lessons="07")
        with self.assertRaisesRegex(SpanError, "columns: 'gap' is not one of first"):
            self.render("p/timeline.json", table="timeline", columns="gap")
        with self.assertRaisesRegex(SpanError, "one device per table.*H100.*H200"):
            self.render("p/timeline.json,p/h200-timeline.json", table="timeline")
        with self.assertRaisesRegex(SpanError, "schema 'reducelab.profile'.*reducelab.timeline"):
            self.render("p/profile.json", table="timeline")


class TimelineValue(Spans):
    def test_fields(self):
        cub = {"lesson": "12", "n": "2^20"}
        host = {"lesson": "10/host_finish", "n": "2^10"}
        for opts, want in [
                (dict(cub, field="gaps_us", index="0"), "1.30 us"),
                (dict(cub, field="first_api_to_first_kernel_us"), "7.90 us"),
                (dict(cub, field="host_us", digits="1"), "3.2 us"),
                (dict(cub, field="host_wall_us", bare=None), "9.10"),
                (dict(cub, field="total_us"), "17.45 us"),
                (dict(cub, field="activities", index="1"), "1.75 us"),
                (dict(cub, field="activities", index="sum"), "8.25 us"),
                (dict(cub, field="activity_name", index="0"), "DeviceReduceKernel"),
                (dict(cub, field="kernels"), "2"),
                (dict(cub, field="api_calls"), "6"),
                (dict(cub, field="api_calls", name="cudaGetDevice"), "3"),
                (dict(cub, field="api", name="cudaLaunchKernel"), "4.00 us"),
                (dict(cub, field="calls"), "20"),
                (dict(cub, field="calls_like_median"), "19"),
                (dict(host, field="gaps_us", index="sum"), "17.50 us"),
                # after the kernel: 5.0 + 1.0 + 12.5 + 1.0; after the last activity, nothing
                (dict(host, field="after", index="0"), "19.50 us"),
                (dict(host, field="after", index="2"), "0.00 us"),
                ({"lesson": "10", "n": "2^10", "field": "after", "index": "0"}, "2.88 us"),
                (dict(host, field="kernels"), "1"),
                (dict(host, field="activity_name", index="2"), "memcpy HtoD"),
                ({"lesson": "10", "variant": "host_finish", "n": "1024", "field": "gaps_us",
                  "index": "1", "digits": "1"}, "12.5 us"),
                ({"lesson": "11", "n": "2^20", "block": "256", "field": "activities",
                  "index": "0"}, "6.25 us")]:
            self.assertEqual(self.timeline(**opts), want, opts)

    def test_refusals(self):
        cub = {"lesson": "12", "n": "2^20"}
        for opts, error in [
                ({"lesson": "11", "n": "2^20", "field": "total_us"},
                 "more than one timeline entry matches \\(2\\): say block= \\(1024, 256\\)"),
                (dict(cub, field="gaps_us"), "field=gaps_us needs index=0..0 \\(or index=sum\\): "
                                             "the entry has 1 gaps"),
                (dict(cub, field="activities", index="2"), "needs index=0..1"),
                (dict(cub, field="activity_name", index="sum"), "needs one index="),
                (dict(cub, field="after", index="sum"), "field=after needs index=0..1"),
                (dict(cub, field="api"), "field=api needs name="),
                (dict(cub, field="api", name="cudaMalloc"),
                 "name=cudaMalloc: the call made no such API call \\(it made cudaGetDevice, "
                 "cudaLaunchKernel, cudaStreamSynchronize\\)"),
                (dict(cub, field="launch_us"), "field=launch_us: one of first_api_to_first_kernel_us"),
                (dict(cub), "value=timeline needs field="),
                ({"lesson": "07", "n": "2^20", "field": "total_us"},
                 "no timeline entry of lesson 07 at n=2\\^20")]:
            with self.assertRaisesRegex(SpanError, error, msg=opts):
                self.timeline(**opts)


class InMarkdown(Spans):
    """The spans as a README writes them, through results_blocks.py: its option syntax carries a
    quoted column list with spaces, a counter with a colon and a flag with no value."""

    def test_write_then_check(self):
        md = os.path.join(self.root, "doc.md")
        with open(md, "w", encoding="utf-8") as f:
            f.write("Stalls: <!-- results: p/profile.json value=profile lesson=02 n=2^20 launch=0 "
                    "counter=stall:long_scoreboard digits=2 --><!-- end results -->; total "
                    "<!-- results: p/timeline.json value=timeline lesson=12 n=2^20 field=total_us "
                    "bare --><!-- end results --> us.\n\n"
                    "<!-- results: p/profile.json table=profile lessons=12 "
                    "columns=\"kernel,grid x block\" -->\n<!-- end results -->\n")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results_blocks.py")
        r = subprocess.run([sys.executable, script, self.root, "--write"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(md, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("counter=stall:long_scoreboard digits=2 -->4.05<!-- end results -->", text)
        self.assertIn("field=total_us bare -->17.45<!-- end results --> us.", text)
        self.assertIn("\n| 12 | - | 2^20 | #1 DeviceReduceSingleTileKernel | 1 x 256 |\n"
                      "<!-- end results -->", text)
        r = subprocess.run([sys.executable, script, self.root], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("every results span matches its file", r.stdout)


class Identifiers(unittest.TestCase):
    def test_as_kernel_name_cpp_gives_them(self):
        for name, want in [
                ("interleaved_strided<NoTrace>", "interleaved_strided"),
                ("void single_pass<1024, 4, 0, NoTrace>(T4::Global<const float>, unsigned long)",
                 "single_pass"),
                (CUB_MAIN, "DeviceReduceKernel"),
                ("void (anonymous namespace)::k<(anonymous namespace)::T>(float*, (x)*)", "k"),
                ("thrust::cuda_cub::core::_kernel_agent<P, F>", "_kernel_agent"),
                ("memset", "memset")]:
            self.assertEqual(kernel_identifier(name), want)


def cells_of(text):
    """The rows of a table the runner printed (common/host/table.cpp), each as its cells."""
    rows = [l for l in text.split("\n") if l.startswith("| ")]
    return [[c.strip() for c in r.strip().strip("|").split(" | ")] for r in rows]


@unittest.skipUnless(RUNNER, "give the runner's path to compare with its --from tables")
class AsTheRunnerPrints(Spans):
    """Each table's cells (header included) against what `reducelab profile|timeline --from`
    prints for the same file: the docs and the program cannot drift apart."""

    def runner(self, mode, path):
        r = subprocess.run([RUNNER, mode, "--from", os.path.join(self.root, path)],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return cells_of(r.stdout)

    def markdown_cells(self, lines):
        rows = [l for l in lines if l.startswith("| ")]
        return [[c.strip() for c in re.split(r"(?<!\\)\|", r.strip().strip("|"))] for r in rows]

    def test_profile(self):
        printed = self.runner("profile", "p/profile.json")
        self.assertEqual(len(printed), 1 + len(PROFILE["kernels"]))
        self.assertEqual(self.markdown_cells(self.render("p/profile.json", table="profile")),
                         printed)

    def test_timeline(self):
        printed = self.runner("timeline", "p/timeline.json")
        self.assertEqual(len(printed), 1 + len(TIMELINE["entries"]))
        self.assertEqual(self.markdown_cells(self.render("p/timeline.json", table="timeline")),
                         printed)


if __name__ == "__main__":
    unittest.main()

"""Exercise 00's right answers, worked out apart from the program from the course's H100 runs.

From assets/results/h100-bench.json: the floor, 4 bytes a float times 2^24 over the device record's
theoretical_gbps (GB/s is bytes a ns; /1000 for us); the ceiling's time at 2^20 at its GB/s at 2^28
(stream_read_gbps), and its measured median at 2^20 less that; the smallest size whose
stream_read_gbps is at least 90% of the one at 2^28. With the DRAM chase of
assets/results/h100-latency-2p28.json: Little's law, GB/s x ns = bytes in flight, over the
device's SMs, over 256 threads x 4 bytes; and the roofline: GB/s over 4 bytes an addition, over
that run's fp32_add_peak_gflops, in %."""
import json
import os


def load(root, name):
    with open(os.path.join(root, "assets/results", name)) as f:
        return json.load(f)


def right(root):
    bench = load(root, "h100-bench.json")
    latency = load(root, "h100-latency-2p28.json")["latency"]
    at = {b["n"]: b for b in bench["baselines"]}
    gbps = at[1 << 28]["stream_read_gbps"]
    predicted = 4 * 2**20 / gbps / 1000
    ninety = min(n for n, b in at.items() if b["stream_read_gbps"] >= 0.9 * gbps)
    dram_ns = next(c["ns_per_load"] for c in latency["chase"] if c["memory"] == "dram")
    per_sm = gbps * dram_ns / bench["device"]["sm_count"]
    adds = gbps / 4
    return {
        "floor_us_2p24": f"{4 * 2**24 / bench['device']['theoretical_gbps'] / 1000:.2f}",
        "predicted_us_2p20": f"{predicted:.3f}",
        "unexplained_us_2p20":
            f"{at[1 << 20]['stream_read']['median_ms'] * 1000 - predicted:.2f}",
        "ninety_pct_from": f"2^{ninety.bit_length() - 1}",
        "blocks_per_sm": f"{per_sm / (256 * 4):.1f}",
        "adds_g_per_s": f"{adds:.0f}",
        "fp32_add_pct": f"{100 * adds / latency['roofline']['fp32_add_peak_gflops']:.2f}",
    }


# Answers that are wrong, each named by the program without its value: a MB taken for a MiB (64e6
# bytes), 2^24 (under 90% in the README's table), whole blocks rounded up, an addition counted for
# every byte.
WRONGS = (("floor_us_2p24", "19.09"), ("ninety_pct_from", "2^24"), ("blocks_per_sm", "9"),
          ("fp32_add_pct", "9.31"))

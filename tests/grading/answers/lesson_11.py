"""Exercise 11's right answers, worked out apart from the program from the committed H100 runs of
lesson 11: Little's law, bytes = GB/s x ns, with the streaming ceiling (baselines) and the DRAM
chase (latency.chase); the fewest 4-byte loads by dividing an SM's share by 2048 threads x 4 bytes
and rounding up; the latency under load as 1x4B's bytes in flight on the whole GPU (one 4-byte load
a thread, 2048 threads an SM) over the GB/s of its run (runs[]); the ridge as the FP32 adds' peak
(SMs x 128 adds a clock x the SM clock, from the device record) over the DRAM spec peak."""
import json
import math
import os


def load(root, k):
    with open(os.path.join(root, f"assets/results/h100-latency-2p{k}.json")) as f:
        return json.load(f)


def need_bytes(doc):
    ns = next(c["ns_per_load"] for c in doc["latency"]["chase"] if c["memory"] == "dram")
    return doc["baselines"][0]["stream_read_gbps"] * ns


def right(root):
    answers = {}
    d26 = load(root, 26)
    answers["need_gpu_kib_2p26"] = f"{need_bytes(d26) / 1024:.1f}"
    for k in (26, 28):
        doc = load(root, k)
        per_sm = need_bytes(doc) / doc["device"]["sm_count"]
        answers[f"loads_4b_2p{k}"] = str(math.ceil(per_sm / (2048 * 4)))
    gbps = next(r["gbps"] for r in d26["runs"]
                if r["lesson"] == 11 and r["variant"] == "1x4B" and r["n"] == 1 << 26)
    in_flight = 1 * 4 * 2048 * d26["device"]["sm_count"]
    answers["loaded_latency_ns_1x4b_2p26"] = f"{in_flight / gbps:.0f}"
    dev = d26["device"]
    peak_gflops = dev["sm_count"] * 128 * dev["sm_clock_mhz"] / 1000
    answers["ridge_flop_per_byte"] = f"{peak_gflops / dev['theoretical_gbps']:.2f}"
    return answers


# Answers that are wrong, each named by the program without its value: one SM's share for the
# GPU's, the loads rounded down, the idle chase's latency, and the ridge against the measured
# ceiling instead of the spec peak.
WRONGS = (("need_gpu_kib_2p26", "7.7"), ("loads_4b_2p28", "1"),
          ("loaded_latency_ns_1x4b_2p26", "348"), ("ridge_flop_per_byte", "11.2"))

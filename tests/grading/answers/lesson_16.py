"""Exercise 16's right answers, worked out apart from the program from the course's H100 run of the
ladder (assets/results/h100-bench.json): Thrust's median time at 2^20 minus the CUB baseline's;
Thrust's device time over its time; and, walking the sizes upward, the first at which lesson 12's
median and the CUB baseline's are within 2% of each other (the larger over the smaller at most
1.02)."""
import json
import os

N = 1 << 20


def right(root):
    with open(os.path.join(root, "assets/results/h100-bench.json")) as f:
        doc = json.load(f)
    cub = {b["n"]: b["cub"]["median_ms"] for b in doc["baselines"]}
    thrust = next(r for r in doc["runs"]
                  if r["lesson"] == 16 and r["variant"] == "thrust" and r["n"] == N)
    answers = {
        "thrust_minus_cub_2p20_us": f"{(thrust['time']['median_ms'] - cub[N]) * 1000:.1f}",
        "thrust_busy_pct_2p20":
            f"{100 * thrust['device_time']['median_ms'] / thrust['time']['median_ms']:.1f}",
    }
    twelve = sorted((r["n"], r["time"]["median_ms"]) for r in doc["runs"]
                    if r["lesson"] == 12 and r["variant"] == "")
    n = next(n for n, t in twelve if max(t, cub[n]) <= 1.02 * min(t, cub[n]))
    answers["closes_at"] = f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)
    return answers


# Answers that are wrong, each named by the program without its value: Thrust's whole time, the
# share CUB's call keeps its GPU busy, the largest size of the run.
WRONGS = (("thrust_minus_cub_2p20_us", "36.3"), ("thrust_busy_pct_2p20", "31.6"),
          ("closes_at", "2^28"))

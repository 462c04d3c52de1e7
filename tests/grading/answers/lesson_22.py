"""Exercise 22's right answers, worked out apart from the program from the course's committed
scaling runs (assets/results/h100x4-nccl-scaling.json, h200x2-nccl-scaling.json), with the rate of a
GPU's reading recomputed from its float count and median time rather than read from the file.
1: taking turns, the two-GPU run's local medians one after the other, then its collective alone;
its aggregate rate (4 bytes a float over that time) over twice the one-GPU run's. 2: README.md's
model at 2^24 floats a GPU, T(K) = 4 n / B + alpha(K), B the one-GPU run's local rate and alpha(K)
the collective alone on K GPUs; the efficiency T(1) / T(4). 3: N = B (alpha(2) - alpha(1)) / 2, in
millions of floats, each device from its own file."""
import json
import os


def load(root, name):
    with open(os.path.join(root, "assets/results", name)) as f:
        return {r["gpus"]: r for r in json.load(f)["runs"]}


def local_bytes_per_s(run):
    (local,) = run["local"]
    return 4 * local["count"] / (local["time"]["median_ms"] * 1e-3)


def alpha_s(run):
    return run["collective"]["median_ms"] * 1e-3


def right(root):
    h100 = load(root, "h100x4-nccl-scaling.json")
    h200 = load(root, "h200x2-nccl-scaling.json")

    two = h100[2]
    turns_s = alpha_s(two) + sum(l["time"]["median_ms"] * 1e-3 for l in two["local"])
    one_rate = 4 * h100[1]["n"] / (h100[1]["time"]["median_ms"] * 1e-3)
    turns_rate = 4 * two["n"] / turns_s

    read_s = 4 * 2**24 / local_bytes_per_s(h100[1])

    def break_even(runs):
        return (alpha_s(runs[2]) - alpha_s(runs[1])) * local_bytes_per_s(runs[1]) / 2 / 1e6

    return {
        "turns_total_ms": f"{turns_s * 1e3:.3f}",
        "turns_efficiency": f"{turns_rate / (2 * one_rate):.3f}",
        "efficiency_4gpus_2p24":
            f"{(read_s + alpha_s(h100[1])) / (read_s + alpha_s(h100[4])):.3f}",
        "breakeven_h100_mfloats": f"{break_even(h100):.1f}",
        "breakeven_h200_mfloats": f"{break_even(h200):.1f}",
    }


# Answers that are wrong, each named by the program without its value: the run as measured (no
# turns), the efficiency of the real two-GPU run, the model without the collective, and for the
# H200s the N at which a GPU's reading on two takes as long as their collective (4 N / (2 B) =
# alpha(2)), not the break-even.
WRONGS = (("turns_total_ms", "1.392"), ("turns_efficiency", "0.996"),
          ("efficiency_4gpus_2p24", "1.0"), ("breakeven_h200_mfloats", "37.5"))

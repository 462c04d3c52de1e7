"""Exercise 07's right answers, worked out apart from the program: the H100's resident grid is its
SM count times the fewest blocks an SM holds of lesson 07's kernel (the committed profile's first
launch at 2^24); a launch's grid is the smaller of that and N / 512 (two inputs a thread), with a
second one-block launch unless the first has one block. A thread's inputs are counted by walking
its loop (in[i] and in[i + 256] each step, i += 512 * grid) for every thread. The order reads each
grid's time from the committed sweep: the resident grid's own row, any other the row of the power
of two nearest N / (256 * grid) inputs a thread, and sorts."""
import json
import math
import os

BLOCK = 256


def resident(root):
    with open(os.path.join(root, "assets/profiles/h100-profile.json")) as f:
        doc = json.load(f)
    k = next(k for k in doc["kernels"] if k["lesson"] == 7 and k["variant"] == ""
             and k["n"] == 1 << 24 and k["launch"] == 0)
    return doc["device"]["sm_count"], doc["device"]["sm_count"] * min(
        k["counters"]["blocks_per_sm_limit"].values())


def right(root):
    sms, full = resident(root)
    answers = {}
    grid = lambda n: min(full, -(-n // (2 * BLOCK)))
    for log2 in (9, 19, 20):
        g = grid(1 << log2)
        answers[f"grids_2p{log2}"] = "1" if g == 1 else f"{g}, 1"
    for log2 in (20, 24, 28):
        n, g = 1 << log2, grid(1 << log2)
        counts = set()
        for b in range(g):
            for t in (0, BLOCK - 1):  # every thread of a block reads alike at these sizes
                count, i = 0, b * 2 * BLOCK + t
                while i < n:
                    count += 1 + (i + BLOCK < n)
                    i += 2 * BLOCK * g
                counts.add(count)
        answers[f"inputs_2p{log2}"] = f"{min(counts)}, {max(counts)}"
    with open(os.path.join(root, "assets/results/sweep/h100-sweep.json")) as f:
        runs = json.load(f)["runs"]
    for log2 in (24, 28):
        n = 1 << log2
        ms = {r["variant"]: r["time"]["median_ms"]
              for r in runs if r["lesson"] == 7 and r["n"] == n}
        times = {}
        for g in (sms, full, 4 * full, n // (2 * BLOCK)):
            k = 2 ** round(math.log2(n / (BLOCK * g)))
            times[g] = ms[""] if g == full else ms[f"{k}_per_thread"]
        answers[f"order_2p{log2}"] = ", ".join(str(g) for g in sorted(times, key=times.get))
    return answers


# Answers that are wrong, each named by the program without its value.
WRONGS = (("grids_2p9", "1, 1"), ("grids_2p19", "1056, 1"), ("inputs_2p24", "62, 62"),
          ("order_2p28", "1056, 4224, 524288, 132"))

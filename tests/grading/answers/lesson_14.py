"""Exercise 14's right answers, worked out apart from the program: the orders by sorting the cluster
plans' median times in the course's H100 runs (assets/results/h100-hopper-2p20.json and 2p28.json);
the partials as the profiled grid at 2^24 (assets/profiles/h100-profile.json) over the cluster size;
the bytes in flight as the blocks an SM holds times the stages' bytes, the blocks being the fewest
of the profile's block, warp and register limits for bulk_copy and of 228 KiB over each block's
stages plus its 1 KiB."""
import json
import os

SIZES = {2: "", 4: "cluster4", 8: "cluster8", 16: "cluster16"}
STAGE = 8 * 1024


def load(root, path):
    with open(os.path.join(root, path)) as f:
        return json.load(f)


def profiled(kernels, variant, n, block):
    found = [k for k in kernels if k["lesson"] == 14 and k["variant"] == variant and k["n"] == n
             and k["block"] == block and k["launch"] == 0]
    if len(found) != 1:
        raise SystemExit(f"FAIL: {len(found)} profiles of lesson 14 {variant!r} at n={n}")
    return found[0]


def right(root):
    answers = {}
    for log2_n in (20, 28):
        runs = load(root, f"assets/results/h100-hopper-2p{log2_n}.json")["runs"]
        ms = {s: r["time"]["median_ms"] for s, v in SIZES.items() for r in runs
              if r["lesson"] == 14 and r["variant"] == v}
        answers[f"order_2p{log2_n}"] = ", ".join(str(s) for s in sorted(ms, key=ms.get))
    kernels = load(root, "assets/profiles/h100-profile.json")["kernels"]
    for size in (2, 4, 16):
        grid = profiled(kernels, SIZES[size], 1 << 24, 1024)["grid"]
        answers[f"partials_2p24_c{size}"] = str(grid // size)
    limits = profiled(kernels, "bulk_copy", 1 << 24, 256)["counters"]["blocks_per_sm_limit"]
    for stages in (2, 3, 4):
        blocks = min(limits["blocks"], limits["warps"], limits["registers"],
                     228 * 1024 // (stages * STAGE + 1024))
        answers[f"inflight_kib_s{stages}"] = str(blocks * stages * STAGE // 1024)
    return answers


# Answers that are wrong, each named by the program without its value: the largest clusters first,
# lesson 12's partials (one a block), four stages counted as if as many blocks still fit.
WRONGS = (("order_2p20", "16, 2, 4, 8"), ("order_2p28", "16, 8, 4, 2"), ("partials_2p24_c2", "264"),
          ("inflight_kib_s4", "256"))

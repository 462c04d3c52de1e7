"""Exercise 03's right answers, worked out apart from the program: the grids by dividing N = 2^24
by the block size until one block is left, the barriers and the levels where a whole warp adds from
the loop's shape (one __syncthreads after the load and one a level; the level with stride s has s
adders), the order by sorting the committed H100 runs."""
import json
import math
import os

BLOCKS = [64, 128, 256, 512, 1024]
N = 1 << 24


def right(root):
    answers = {}
    for b in BLOCKS:
        grids, count = [], N
        while True:
            count = -(-count // b)
            grids.append(count)
            if count == 1:
                break
        answers[f"grids_b{b}"] = ", ".join(map(str, grids))
        levels = int(math.log2(b))
        answers[f"barriers_b{b}"] = str(levels + 1)
        answers[f"warp_levels_b{b}"] = str(sum(1 for k in range(levels) if (b >> (k + 1)) >= 32))
    with open(os.path.join(root, "assets/results/h100-block-sizes-2p24.json")) as f:
        runs = json.load(f)["runs"]
    ms = {r["block"]: r["time"]["median_ms"] for r in runs if r["lesson"] == 3 and r["n"] == N}
    if sorted(ms) != BLOCKS:
        raise SystemExit(f"FAIL: the committed runs are not the five block sizes: {sorted(ms)}")
    answers["order_2p24"] = ", ".join(str(b) for b in sorted(BLOCKS, key=ms.get))
    return answers


WRONGS = (("grids_b256", "65536, 256"), ("barriers_b1024", "10"), ("warp_levels_b64", "6"),
          ("order_2p24", "64, 128, 256, 512, 1024"))

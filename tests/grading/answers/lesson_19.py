"""Exercise 19's right answers, worked out apart from the program: the plan of plan.cuh redone by
hand for float32 rows on the committed H100 record's SMs (each holding 2048 / 256 = 8 blocks of 256
threads, so 1056 blocks and 8448 warps at once): a row's 16-byte loads (a whole number of them, or
else one float a load); the group kernel up to 256 loads, or up to 1024 where the rows are at least
half the GPU's warps, with the loads rounded up to a power of two (at most 32) for its lanes; else
several blocks a row where the rows are fewer than the GPU's blocks, as many as fill the GPU once
but no more than give each thread 4 loads; else a block a row. The H200's time at 4096x4096 is read
from the committed H200 run (assets/results/h200-rows.json)."""
import json
import os

BLOCK = 256
TICKETS = 4096  # row_reduce.cuh's rows_ticket_capacity: the most rows the split plan takes


def load(root, path):
    with open(os.path.join(root, path)) as f:
        return json.load(f)


def next_pow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


def plan(m, n, sm_count):
    """('group', lanes) or ('block', splits) for an m x n float32 matrix on an aligned base."""
    packs = -(-n * 4 // 16)
    loads = packs if n * 4 % 16 == 0 else n
    blocks = sm_count * (2048 // BLOCK)
    warps = blocks * (BLOCK // 32)
    if packs <= 256 or (packs <= 1024 and m >= warps // 2):
        return "group", min(next_pow2(loads), 32)
    splits = 1
    if m < blocks and m <= TICKETS:
        splits = min(-(-blocks // m), max(1, packs // (BLOCK * 4)))
    return "block", splits


def kernel(m, n, sm_count):
    how, count = plan(m, n, sm_count)
    if how == "group":
        return "rows_by_groups"
    return "rows_by_block" if count == 1 else "rows_by_split_blocks"


def right(root):
    sm_count = load(root, "assets/results/h100-beyond.json")["device"]["sm_count"]
    answers = {}
    for m, n in ((8192, 4096), (2048, 4096), (512, 4096), (256, 8192)):
        answers[f"kernel_{m}x{n}"] = kernel(m, n, sm_count)
    for n in (32, 30, 12):
        answers[f"lanes_4096x{n}"] = str(plan(4096, n, sm_count)[1])
    for key, (m, n) in (("32x32768", (32, 32768)), ("1000x16384", (1000, 16384)),
                        ("4x2p22", (4, 1 << 22))):
        answers[f"splits_{key}"] = str(plan(m, n, sm_count)[1])
    runs = load(root, "assets/results/h200-rows.json")["runs"]
    ms = [r["time"]["median_ms"] for r in runs
          if r["op"] == "sum" and r["dtype"] == "float32" and r["shape"] == [4096, 4096]]
    if len(ms) != 1:
        raise SystemExit(f"FAIL: {len(ms)} float32 sums at 4096x4096 in h200-rows.json")
    answers["h200_us_4096x4096"] = f"{ms[0] * 1e3:.2f}"
    return answers


# Answers that are wrong, each named by the program without its value: the split plan where a
# thread would get too few loads, 30 floats counted as 16-byte loads, the limit of 4 loads a thread
# alone (more blocks than the GPU holds), and the H100's time unscaled.
WRONGS = (("kernel_512x4096", "rows_by_split_blocks"), ("lanes_4096x30", "8"),
          ("splits_4x2p22", "1024"), ("h200_us_4096x4096", "24.07"))

"""Exercise 20's right answers, worked out apart from the program: the plan of plan.cuh redone by
hand for float32 columns on the committed H100 record's SMs (each holding 2048 / 256 = 8 blocks of
256 threads; the plan aims at half of them, 528): a row's loads (4 floats where it is a whole number
of 16-byte loads, else one), a tile of column threads from the loads' next power of two (at most
256) halved down to 32 while the tiles are fewer than the aim, so its columns are those threads
times the floats of a load; a tile's chunks the fewer of those that bring the tiles up to the aim
and of those that leave each row lane 8 rows, then counted again from the rows a chunk gets. The
naive atomic sum's H200 times are read from the committed H200 run
(assets/results/h200-columns.json): its runs marked "deterministic": false."""
import json
import os

BLOCK = 256
TICKETS = 8192  # column_reduce.cuh's cols_ticket_capacity: the most tiles the chunked plan takes
ROWS_PER_THREAD = 8  # plan.cuh's cols_rows_per_thread


def load(root, path):
    with open(os.path.join(root, path)) as f:
        return json.load(f)


def ceil_div(a, b):
    return -(-a // b)


def next_pow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


def plan(m, n, sm_count):
    """(columns a tile, chunks a tile) for an m x n float32 matrix on an aligned base."""
    aim = sm_count * (2048 // BLOCK) // 2
    per_load = 4 if n * 4 % 16 == 0 else 1
    loads = ceil_div(n, per_load)
    threads = min(next_pow2(loads), BLOCK)
    while threads > 32 and ceil_div(loads, threads) < aim:
        threads //= 2
    tiles = ceil_div(loads, threads)
    chunks = 1
    if tiles < aim and tiles <= TICKETS:
        rows_limit = m // (BLOCK // threads * ROWS_PER_THREAD)
        chunks = max(1, min(ceil_div(aim, tiles), rows_limit, 1 << 16))
    chunk_rows = max(1, ceil_div(m, chunks))
    return threads * per_load, max(1, ceil_div(m, chunk_rows))


def right(root):
    sm_count = load(root, "assets/results/h100-beyond.json")["device"]["sm_count"]
    answers = {}
    for key, (m, n) in (("64x262144", (64, 1 << 18)), ("4096x1000", (4096, 1000)),
                        ("4096x1001", (4096, 1001))):
        answers[f"tile_columns_{key}"] = str(plan(m, n, sm_count)[0])
    for key, (m, n) in (("65536x256", (1 << 16, 256)), ("4096x64", (4096, 64)),
                        ("1000x8", (1000, 8))):
        answers[f"chunks_{key}"] = str(plan(m, n, sm_count)[1])
    runs = load(root, "assets/results/h200-columns.json")["runs"]
    for key, shape in (("2p20x8", [1 << 20, 8]), ("4096x4096", [4096, 4096])):
        ms = [r["time"]["median_ms"] for r in runs if r["op"] == "sum" and r["dtype"] == "float32"
              and r.get("deterministic") is False and r["shape"] == shape]
        if len(ms) != 1:
            raise SystemExit(f"FAIL: {len(ms)} naive atomic sums of {shape} in h200-columns.json")
        answers[f"h200_naive_us_{key}"] = f"{ms[0] * 1e3:.2f}"
    return answers


# Answers that are wrong, each named by the program without its value: 1001 floats read as if in
# 16-byte loads, the chunks of the rows' limit alone and of the aim alone, and the H100's naive
# time scaled by the memories' bandwidths (3352 and 4814 GB/s), as if the atomics waited for DRAM.
WRONGS = (("tile_columns_4096x1001", "128"), ("chunks_65536x256", "1024"), ("chunks_1000x8", "528"),
          ("h200_naive_us_2p20x8", "1288"), ("h200_naive_us_4096x4096", "52.7"))

"""Exercise 10's right answers, worked out apart from the program: kernel 1's grid from
persistent_grid's two limits (the SMs of the committed H100 record, each holding 2048 / 256 = 8
blocks of 256 threads, and at least 2 floats a thread: ceil(N / 512) blocks), kernel 2's one block;
the most partials a thread of kernel 2 adds by dealing that grid over its 1024 threads or 32 lanes;
the sizes from which the committed H100 runs stop being launch-bound by reading their flags."""
import json
import os

BLOCK = 256
ITEMS_PER_THREAD = 2  # plan.cu's items_per_thread


def grid(n, sm_count):
    return min(sm_count * (2048 // BLOCK), -(-n // (BLOCK * ITEMS_PER_THREAD)))


def right(root):
    with open(os.path.join(root, "assets/results/h100-bench.json")) as f:
        bench = json.load(f)
    sm_count = bench["device"]["sm_count"]
    answers = {}
    for k in (16, 19):
        answers[f"grids_2p{k}"] = f"{grid(1 << k, sm_count)}, 1"
    g = grid(1 << 24, sm_count)
    answers["most_partials_block_finish_2p24"] = str(-(-g // 1024))
    answers["most_partials_warp_finish_2p24"] = str(-(-g // 32))
    for key, variant in (("unbound_from_two_kernels", ""),
                         ("unbound_from_host_finish", "host_finish")):
        runs = sorted((r["n"], r["launch_bound"]) for r in bench["runs"]
                      if r["lesson"] == 10 and r["variant"] == variant)
        last_bound = max(n for n, bound in runs if bound)
        first = min(n for n, bound in runs if not bound and n > last_bound)
        answers[key] = f"2^{first.bit_length() - 1}"
    return answers


# Answers that are wrong, each named by the program without its value: the SMs' limit where the
# input's binds, a grid of one partial a lane, and a size two powers of two too small.
WRONGS = (("grids_2p16", "1056, 1"), ("grids_2p19", "1056, 1"),
          ("most_partials_warp_finish_2p24", "32"), ("unbound_from_host_finish", "2^25"))

"""Exercise 08's right answers, worked out apart from the program: the levels from the kernel's
shape (shared_levels_down_to_64 adds one level for each half of 512, 256, 128 and 64 that the block
is at least twice, warp 0's first add is one more where the block has 64 threads or more, and the
shuffle loop makes log2(32) = 5 passes); the lanes by playing the shift-down loop on 32 lanes, each
holding how many times it has each lane's starting value (lane i adds lane i + offset's, or its own
where that is past lane 31)."""
from collections import Counter


def right(root):
    answers = {}
    for b in (64, 256, 1024):
        shared = sum(1 for half in (512, 256, 128, 64) if b >= 2 * half) + (b >= 64)
        answers[f"levels_b{b}"] = f"{shared}, 5"
    v = [Counter({lane: 1}) for lane in range(32)]
    offset = 16
    while offset:
        v = [v[i] + (v[i + offset] if i + offset < 32 else v[i]) for i in range(32)]
        offset //= 2
    answers["lanes_in_lane1"] = str(len(v[1]))
    answers["lanes_in_lane16"] = str(len(v[16]))
    answers["lane31_times"] = str(v[31][31])
    return answers


# Answers that are wrong, each named by the program without its value.
WRONGS = (("levels_b256", "8, 0"), ("levels_b1024", "5, 10"), ("lanes_in_lane1", "1"),
          ("lane31_times", "1"))

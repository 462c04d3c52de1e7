"""Exercise 15's right answers, worked out apart from the program: the empty kernel's median time a
launch on the stream over its median from a graph (assets/results/h100-launch-cost.json); the
launch-bound rows by the README's rule, device time under 80% of the time a call, applied to the
medians of lesson 13's own plan, lesson 15's own and on_stream in the course's run of the ladder
(assets/results/h100-bench.json)."""
import json
import os

ROWS = (("13", 13, ""), ("15", 15, ""), ("on_stream", 15, "on_stream"))


def load(root, path):
    with open(os.path.join(root, path)) as f:
        return json.load(f)


def right(root):
    empty = load(root, "assets/results/h100-launch-cost.json")["launch_costs"]["empty_kernel"]
    answers = {"empty_stream_over_graph":
               f"{empty['stream']['median_ms'] / empty['graph']['median_ms']:.1f}"}
    runs = load(root, "assets/results/h100-bench.json")["runs"]
    for log2_n in (10, 20):
        bound = []
        for name, lesson, variant in ROWS:
            r = next(r for r in runs
                     if r["lesson"] == lesson and r["variant"] == variant and r["n"] == 1 << log2_n)
            if r["device_time"]["median_ms"] < 0.8 * r["time"]["median_ms"]:
                bound.append(name)
        answers[f"launch_bound_2p{log2_n}"] = ", ".join(bound) or "none"
    return answers


# Answers that are wrong, each named by the program without its value: a graph no faster than the
# stream, every row launch-bound at 2^10, lesson 13's row at 2^20.
WRONGS = (("empty_stream_over_graph", "1"), ("launch_bound_2p10", "13, 15, on_stream"),
          ("launch_bound_2p20", "13"))

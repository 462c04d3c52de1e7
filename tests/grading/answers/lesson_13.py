"""Exercise 13's right answers, worked out apart from the program, by reading the course's H100 runs
of the whole ladder (assets/results/h100-hopper-2p10.json and 2p24.json) directly: the saving as
two_kernel's median time a call minus two_kernel_pdl's; the share of the plain ceiling as the
baseline's plainly launched streaming read over the own plan's time; the device-time share as the
device time of the streaming read launched with the attribute (its stream+PDL way) over the own
plan's device time."""
import json
import os


def hopper(root, log2_n):
    with open(os.path.join(root, f"assets/results/h100-hopper-2p{log2_n}.json")) as f:
        return json.load(f)


def us(timing):
    return timing["median_ms"] * 1000


def run(doc, variant, clock="time"):
    found = [r for r in doc["runs"] if r["lesson"] == 13 and r["variant"] == variant]
    if len(found) != 1:
        raise SystemExit(f"FAIL: {len(found)} runs of lesson 13 {variant!r} in a committed file")
    return us(found[0][clock])


def right(root):
    answers = {}
    for log2_n in (10, 24):
        doc = hopper(root, log2_n)
        answers[f"saving_2p{log2_n}_us"] = f"{run(doc, 'two_kernel') - run(doc, 'two_kernel_pdl'):.2f}"
    doc = hopper(root, 10)
    base = doc["baselines"][0]
    answers["pct_plain_2p10"] = f"{100 * us(base['stream_read']) / run(doc, ''):.1f}"
    pdl = next(w for w in base["stream_read_ways"] if w["launch"] == "stream+PDL")
    answers["device_pct_2p10"] = f"{100 * us(pdl['device_time']) / run(doc, '', 'device_time'):.1f}"
    return answers


# Answers that are wrong, each named by the program without its value: lesson 10's whole gap at
# 2^10, a saving five times too small at 2^24, the share of the ceiling launched with the attribute
# (the one the README prints), and the stream times' share instead of the device times'.
WRONGS = (("saving_2p10_us", "3.58"), ("saving_2p24_us", "0.2"), ("pct_plain_2p10", "94.7"),
          ("device_pct_2p10", "94.7"))

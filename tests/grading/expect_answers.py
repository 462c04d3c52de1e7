"""An exercise's graded questions (common/host/answers.h) on right and wrong answer files.

The right answers are worked out here, apart from the program. Lesson 01: the threads that add at
each stride of a 256-thread block (the multiples of 2 * stride) and the warps that hold them.
Lesson 03: the grids by dividing
N = 2^24 by the block size until one block is left, the barriers and the levels where a whole warp
adds from the loop's shape (one __syncthreads after the load and one a level; the level with stride
s has s adders), the order by sorting the committed H100 runs. Lesson 02: the worst bank conflict at
each stride from the addresses lesson 02's lanes touch (lane t: words 2*s*t and 2*s*t + s while
2*s*t < 256). The program must pass that file, name a changed answer as wrong without printing its
value, say a blank line is not answered, and refuse a line out of format or a key no question has
with one line and a non-zero exit.
    python3 tests/grading/expect_answers.py LESSON EXE REPO_ROOT WORK"""
import json
import math
import os
import subprocess
import sys

lesson, exe, root, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)
blocks = [64, 128, 256, 512, 1024]
n = 1 << 24


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def lesson_01():
    right = {}
    s = 1
    while s < 256:
        adders = [t for t in range(256) if t % (2 * s) == 0]
        right[f"adders_stride{s}"] = str(len(adders))
        right[f"warps_stride{s}"] = str(len({t // 32 for t in adders}))
        s *= 2
    return right


def lesson_02():
    right = {}
    s = 1
    while s < 256:
        worst = 1
        for warp in range(256 // 32):
            lanes = [t for t in range(32 * warp, 32 * warp + 32) if 2 * s * t < 256]
            for offset in (0, s):  # partial[index] (read and written), partial[index + stride]
                banks = {}
                for t in lanes:
                    banks.setdefault((2 * s * t + offset) % 32, set()).add(2 * s * t + offset)
                worst = max([worst] + [len(v) for v in banks.values()])
        right[f"conflict_stride{s}"] = str(worst)
        s *= 2
    return right


def lesson_03():
    right = {}
    for b in blocks:
        grids, count = [], n
        while True:
            count = -(-count // b)
            grids.append(count)
            if count == 1:
                break
        right[f"grids_b{b}"] = ", ".join(map(str, grids))
        levels = int(math.log2(b))
        right[f"barriers_b{b}"] = str(levels + 1)
        right[f"warp_levels_b{b}"] = str(sum(1 for k in range(levels) if (b >> (k + 1)) >= 32))
    runs = json.load(open(os.path.join(root, "assets/results/h100-block-sizes-2p24.json")))["runs"]
    ms = {r["block"]: r["time"]["median_ms"] for r in runs if r["lesson"] == 3 and r["n"] == n}
    if sorted(ms) != blocks:
        fail(f"the committed runs are not the five block sizes: {sorted(ms)}")
    right["order_2p24"] = ", ".join(str(b) for b in sorted(blocks, key=ms.get))
    return right


right = {"01": lesson_01, "02": lesson_02, "03": lesson_03}[lesson]()
total = len(right)


def check(name, answers, extra=""):
    path = os.path.join(work, name + ".txt")
    with open(path, "w") as f:
        f.write("# " + name + "\n" + "".join(f"{k} = {v}\n" for k, v in answers.items()) + extra)
    p = subprocess.run([exe, "--check-answers", path], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


code, out = check("right", right)
if code != 0 or f"answers: {total} of {total} right" not in out:
    fail(f"the right answers did not pass (exit {code}):\n{out}")
print("right answers: " + out.strip().split("\n")[-1])

# Spaces, commas and case do not matter.
keys = list(right)
loose = {k: " " + v.replace(", ", " ,") + "  " for k, v in right.items()}
code, out = check("loose", loose)
if code != 0:
    fail(f"the same answers spaced otherwise were refused:\n{out}")

wrongs = {"01": (("adders_stride1", "256"), ("warps_stride16", "1")),
          "02": (("conflict_stride1", "1"), ("conflict_stride8", "16")),
          "03": (("grids_b256", "65536, 256"), ("barriers_b1024", "10"), ("warp_levels_b64", "6"),
                 ("order_2p24", "64, 128, 256, 512, 1024"))}[lesson]
for key, wrong in wrongs:
    code, out = check("wrong-" + key, dict(right, **{key: wrong}))
    line = next((l for l in out.split("\n") if l.strip().startswith(key + ":")), "")
    if right[key] == wrong:
        fail(f"the test's wrong answer for {key} is the right one")
    if code == 0 or "wrong" not in line or f"answers: {total - 1} of {total} right" not in out:
        fail(f"{key} = {wrong} was not named as wrong (exit {code}):\n{out}")
    # (an answer of one or two digits may stand in a nudge's words by chance: "2 * stride")
    if len(right[key]) >= 3 and right[key] in line:
        fail(f"the nudge for {key} gives the answer away: {line}")
    print(f"{key} = {wrong}: {line.strip()[:110]}")

code, out = check("blank", dict(right, **{keys[1]: ""}))
if code == 0 or f"{keys[1]}: not answered" not in out:
    fail(f"a blank answer was not said to be unanswered:\n{out}")

for name, extra, phrase in (("no-equals", f"{keys[0]} 7\n", "not a `key = value` line"),
                            ("unknown", "launches = 3\n", "no question is called 'launches'"),
                            ("twice", f"{keys[-1]} = 1\n", "answered twice")):
    code, out = check(name, right, extra)
    if code == 0 or phrase not in out or len(out.strip().split("\n")) != 1:
        fail(f"{name}: not refused with one line naming it (exit {code}):\n{out}")
    print(f"{name}: {out.strip()}")
print("the answers are checked against the course's own and no value leaks")

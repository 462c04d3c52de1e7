"""An exercise's graded questions (common/host/answers.h) on right and wrong answer files.

The right answers are worked out here, apart from the program: answers/lesson_NN.py says how for
exercise NN, and names a few wrong answers. The program must pass the right file, name a changed
answer as wrong without printing its value, say a blank line is not answered, and refuse a line out
of format or a key no question has with one line and a non-zero exit.
    python3 tests/grading/expect_answers.py LESSON EXE REPO_ROOT WORK"""
import importlib
import os
import subprocess
import sys

lesson, exe, root, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)
# Each exercise's right answers and a few wrong ones: answers/lesson_NN.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "answers"))
reference = importlib.import_module("lesson_" + lesson)


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


right = reference.right(root)
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

wrongs = reference.WRONGS
for key, wrong in wrongs:
    code, out = check("wrong-" + key, dict(right, **{key: wrong}))
    line = next((l for l in out.split("\n") if l.strip().startswith(key + ":")), "")
    if right[key] == wrong:
        fail(f"the test's wrong answer for {key} is the right one")
    if code == 0 or "wrong" not in line or f"answers: {total - 1} of {total} right" not in out:
        fail(f"{key} = {wrong} was not named as wrong (exit {code}):\n{out}")
    # The nudge: the line after the echoed answer. (An answer of one or two digits may stand in a
    # nudge's words by chance: "2 * stride".)
    nudge = line.split(f"({wrong})", 1)[-1]
    if len(right[key]) >= 3 and right[key] in nudge:
        fail(f"the nudge for {key} gives the answer away: {line}")
    print(f"{key} = {wrong}: {line.strip()[:110]}")

code, out = check("blank", dict(right, **{keys[1]: ""}))
if code == 0 or f"{keys[1]}: not answered" not in out:
    fail(f"a blank answer was not said to be unanswered:\n{out}")

for name, extra, phrase in (("no-equals", f"{keys[0]} 7\n", "not a `key = value` line"),
                            ("unknown", "no_such_question = 3\n", "no question is called 'no_such_question'"),
                            ("twice", f"{keys[-1]} = 1\n", "answered twice")):
    code, out = check(name, right, extra)
    if code == 0 or phrase not in out or len(out.strip().split("\n")) != 1:
        fail(f"{name}: not refused with one line naming it (exit {code}):\n{out}")
    print(f"{name}: {out.strip()}")
print("the answers are checked against the course's own and no value leaks")

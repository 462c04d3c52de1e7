#!/usr/bin/env bash
# The trusted side of a lesson that grades its own cases (lessons 18-22, grade_main.h's grade_runs)
# decides from the outputs alone (common/host/grade_record.h's "bytes" lines):
#   expect_trusted_runs.sh EXE WORK
# EXE (a lesson executable with its solution) hands back its outputs for one seed; its own
# --grade-check then passes them for that seed and fails them for another seed, with one output
# changed, with a case left out, with a rerun's bytes unlike the first run's, with a forged verdict
# line added, and cut short; lessons 18-20 with a depth longer than the plan's.
set -euo pipefail
exe=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$(dirname "$0")/trusted_check_lib.sh"
hand_back
grep -q "^bytes 0 0 " "$work/outputs" || fail "no outputs handed back: $(head -3 "$work/outputs" | cut -c1-200)"
expect "as handed back" "$work/outputs" "$seed" "result: PASSED"
expect "another seed" "$work/outputs" $((seed + 1)) "result: FAILED" "expected"
# The first case with outputs, every bit of them flipped (a float's sign and exponent with the rest).
python3 - "$work/outputs" "$work/changed" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
for k, line in enumerate(lines):
    w = line.split(" ")
    if w[:2] == ["bytes", "0"] and w[3] != "-":
        w[3] = "".join("%x" % (15 - int(d, 16)) for d in w[3])
        lines[k] = " ".join(w)
        break
open(sys.argv[2], "w").write("\n".join(lines))
PY
cmp -s "$work/outputs" "$work/changed" && fail "no output was changed"
expect "one output changed" "$work/changed" "$seed" "result: FAILED" "expected"
awk '!($1 == "bytes" && $2 == 0 && $3 == 5)' "$work/outputs" >"$work/dropped"
expect "a case left out" "$work/dropped" "$seed" "result: FAILED" "where case 5 of pass 0 belongs"
# A rerun (the reverse lane order) whose bytes are another case's: right for neither.
if grep -q "^bytes 1 " "$work/outputs"; then
  python3 - "$work/outputs" "$work/rerun" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
reruns = [k for k, line in enumerate(lines) if line.startswith("bytes 1 ")]
first = reruns[0]
second = next(k for k in reruns if lines[k].split(" ")[3] != lines[first].split(" ")[3])
reruns = [first, second]
a, b = lines[reruns[0]].split(" "), lines[reruns[1]].split(" ")
a[3], b[3] = b[3], a[3]
lines[reruns[0]], lines[reruns[1]] = " ".join(a), " ".join(b)
open(sys.argv[2], "w").write("\n".join(lines))
PY
  cmp -s "$work/outputs" "$work/rerun" && fail "no rerun was changed"
  expect "a rerun unlike the first run" "$work/rerun" "$seed" "result: FAILED" "reverse order"
fi
# Lessons 18-20 end their first pass with their idea's case: each output the longest chain of
# combines behind it (the Depth operator), a uint32. Every one made 65536 fails it, as the idea.
case $(basename "$exe") in
  18_* | 19_* | 20_*)
    python3 - "$work/outputs" "$work/deep" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
last = max(k for k, line in enumerate(lines) if line.startswith("bytes 0 "))
w = lines[last].split(" ")
w[3] = "00000100" * (len(w[3]) // 8)
lines[last] = " ".join(w)
open(sys.argv[2], "w").write("\n".join(lines))
PY
    expect "a chain of combines longer than the plan's" "$work/deep" "$seed" "result: FAILED" \
      "came out of a chain of 65536 combines"
    ;;
esac
{ cat "$work/outputs"; echo "result: PASSED"; } >"$work/forged"
expect "a verdict line added" "$work/forged" "$seed" "result: FAILED" "not in the grader's format"
head -c 100 "$work/outputs" >"$work/cut"
expect "cut short" "$work/cut" "$seed" "result: FAILED"
echo "the trusted check passes the outputs handed back and nothing else"

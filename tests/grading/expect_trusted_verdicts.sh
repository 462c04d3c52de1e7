#!/usr/bin/env bash
# Through the sandbox, every kind of verdict is the trusted side's (lessons/GRADING.md):
#   expect_trusted_verdicts.sh BUILD WORK [NN ...]
# grades, with lessons/grade.sh --class in the student build BUILD, a class of two on lessons NN
# (default 11 13 18 21: a speed target, calls queued back to back, a lesson's own typed cases, a plan
# and its reductions): sol hands in every solution, ex every untouched exercise. Each of sol's rows
# must be PASSED, each of ex's FAILED, and each log must open with the trusted grader's "checking
# lesson" line. WHO="sol" (in the environment) grades the solutions alone.
set -euo pipefail
build=$1 work=$2
shift 2
lessons=("$@")
[ ${#lessons[@]} -gt 0 ] || lessons=(11 13 18 21)
who=${WHO:-sol ex}
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/class"
for w in $who; do mkdir -p "$work/class/$w"; done
for nn in "${lessons[@]}"; do
  dir=$(ls -d "$root"/lessons/"$nn"_*/)
  for f in "$dir"exercise/*; do
    case $(basename "$f") in HINTS.md | answers_*.txt) continue ;; esac  # not kernels
    [ ! -d "$work/class/ex" ] || cp "$f" "$work/class/ex/"
    [ ! -d "$work/class/sol" ] || cp "$dir$(basename "$f")" "$work/class/sol/"
  done
done
# Lesson 22 runs lesson 12's single pass on each GPU: a student who reached it hands in lesson 12 too.
if [[ " ${lessons[*]} " == *" 22 "* ]] && [ -d "$work/class/sol" ]; then
  cp "$root"/lessons/12_*/single_pass.cuh "$work/class/sol/"
fi
bash "$root/lessons/grade.sh" --class "$work/class" "${lessons[@]}" --build "$build" --case-timeout 30 \
  >"$work/class.out" 2>&1 || fail "grade.sh --class failed: $(tail -5 "$work/class.out")"
cat "$work/class.out"
csv=$work/class-results.csv
for nn in "${lessons[@]}"; do
  name=$(basename "$(ls -d "$root"/lessons/"$nn"_*/)")
  [ ! -d "$work/class/sol" ] || grep -q "^sol,$name,PASSED," "$csv" \
    || fail "the solution of $name: $(grep "^sol,$name," "$csv")"
  [ ! -d "$work/class/ex" ] || grep -q "^ex,$name,FAILED," "$csv" \
    || fail "the untouched exercise of $name: $(grep "^ex,$name," "$csv")"
  for w in $who; do
    log=$(awk -F, -v w="$w" -v n="$name" '$1 == w && $2 == n { print $NF }' "$csv")
    [[ $log = /* ]] || log=$root/$log
    head -1 "$log" | grep -q "^checking lesson $nn " || fail "$w's $name log does not open with the trusted check: $(head -1 "$log")"
  done
done
echo "every solution passes and every untouched exercise fails, by the trusted side's verdict"

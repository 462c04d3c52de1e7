#!/usr/bin/env bash
# The trusted side of a grade decides from the outputs alone (common/host/grade_record.h):
#   expect_trusted_check.sh EXE WORK
# EXE (a lesson executable with its solution) hands back its outputs for one seed; its own
# --grade-check then passes them for that seed and fails them for another seed, with one result's
# bit flipped, with a case left out, with cases swapped, and with a forged verdict line added; where
# the lesson has a speed target, with figures that miss it and with a verdict in their place; where
# it hands back its idea's figures (lesson 15's replay, or a trace's figures: lessons 01-14), with a
# launch, a wrong total, a bank conflict, one load ahead or none of them.
set -euo pipefail
exe=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$(dirname "$0")/trusted_check_lib.sh"
hand_back
# The plan's index among the executable's plans: 0 in a simulator-only build, 1 where a GPU plan
# comes first (a build with CUDA, run on the simulator).
plan=$(awk '$1 == "out" && $2 == 0 && $4 == 0 { print $3; exit }' "$work/outputs")
[ -n "$plan" ] || fail "no outputs handed back: $(head -3 "$work/outputs")"
expect "as handed back" "$work/outputs" "$seed" "result: PASSED"
expect "another seed" "$work/outputs" $((seed + 1)) "result: FAILED" "expected"
# The lowest bit of the exponent (twice or half the value) of the first result that is not zero.
line=$(awk '$1 == "out" && length($5) == 8 && $5 != "00000000" { print NR ":" $0; exit }' "$work/outputs")
number=${line%%:*} bits=${line##* }
sed "${number}s/ $bits\$/ $(printf '%08x' $((16#$bits ^ 0x00800000)))/" "$work/outputs" >"$work/flipped"
cmp -s "$work/outputs" "$work/flipped" && fail "no bit was flipped"
expect "one bit flipped" "$work/flipped" "$seed" "result: FAILED" "expected"
awk -v p="$plan" '!($1 == "out" && $2 == 0 && $3 == p && $4 == 5)' "$work/outputs" >"$work/dropped"
expect "a case left out" "$work/dropped" "$seed" "result: FAILED" "where case 5 of pass 0 belongs"
awk -v p="$plan" '$1 == "out" && $2 == 0 && $3 == p && $4 == 2 { held = $0; next } { print }
  $1 == "out" && $2 == 0 && $3 == p && $4 == 3 { print held }' "$work/outputs" >"$work/swapped"
expect "two cases swapped" "$work/swapped" "$seed" "result: FAILED" "where case 2 of pass 0 belongs"
{ cat "$work/outputs"; echo "result: PASSED"; } >"$work/forged"
expect "a verdict line added" "$work/forged" "$seed" "result: FAILED" "not in the grader's format"
head -c 100 "$work/outputs" >"$work/cut"
expect "cut short" "$work/cut" "$seed" "result: FAILED"
# A lesson with a speed target (lesson 11) hands back the figures it is judged from, not a verdict:
# the trusted side judges them, and a verdict in their place is out of format.
if grep -q "^target " "$work/outputs"; then
  sed 's/^target .*/target loads 1 bytes 4 block 256 blocks_per_sm 8 registers 16/' "$work/outputs" >"$work/slow"
  expect "one 4-byte load in flight" "$work/slow" "$seed" "result: FAILED" "Little's law"
  sed 's/^target .*/target ok/' "$work/outputs" >"$work/claimed"
  expect "a target claimed" "$work/claimed" "$seed" "result: FAILED" "not in the grader's format"
fi
# Lesson 15 hands back its idea's figures (a second call: the kernels it launched itself, its
# total): a launch of its own, a wrong total or no figures at all fail.
if grep -q "^replay " "$work/outputs"; then
  sed -E 's/^replay [0-9]+ /replay 1 /' "$work/outputs" >"$work/launched"
  expect "a second call that launched" "$work/launched" "$seed" "result: FAILED" "launched 1 kernel itself"
  sed -E 's/^replay ([0-9]+) [0-9a-f]{8}$/replay \1 00000000/' "$work/outputs" >"$work/zero"
  expect "a replay that left 0" "$work/zero" "$seed" "result: FAILED" "replay left 0"
  grep -v "^replay " "$work/outputs" >"$work/no-replay"
  expect "no replay figures" "$work/no-replay" "$seed" "result: FAILED" "never measured"
fi
# Lessons 01-14 hand back the figures of a trace of their kernel (common/host/idea.h): a bank
# conflict at every level fails lesson 03's idea, one load before thread 0's first addition fails
# lesson 11's (the head's sixth figure), no figures fail, and a verdict in their place is out of
# format.
if grep -q "^idea " "$work/outputs"; then
  if [[ $(basename "$exe") == 11_* ]]; then
    awk '$1 == "idea" { m = split($2, h, ","); h[6] = 1; $2 = h[1]; for (k = 2; k <= m; ++k) $2 = $2 "," h[k] }
         { print }' "$work/outputs" >"$work/one-load"
    cmp -s "$work/outputs" "$work/one-load" && fail "the loads before the first add were not changed"
    expect "one load before the first add" "$work/one-load" "$seed" "result: FAILED" \
      "issued 1 load before its first addition"
  else
    awk '$1 == "idea" { for (i = 3; i <= NF; ++i) { split($i, f, ","); f[7] = 4; f[8] = 21
                          $i = f[1]; for (k = 2; k <= 13; ++k) $i = $i "," f[k] } } { print }' \
      "$work/outputs" >"$work/conflicted"
    cmp -s "$work/outputs" "$work/conflicted" && fail "no conflict was written into the idea's figures"
    expect "a 4-way bank conflict" "$work/conflicted" "$seed" "result: FAILED" "4-way bank conflict"
  fi
  grep -v "^idea " "$work/outputs" >"$work/no-idea"
  expect "no idea figures" "$work/no-idea" "$seed" "result: FAILED" "never recorded"
  sed 's/^idea .*/idea ok/' "$work/outputs" >"$work/idea-claimed"
  expect "an idea claimed" "$work/idea-claimed" "$seed" "result: FAILED" "not in the grader's format"
fi
echo "the trusted check passes the outputs handed back and nothing else"

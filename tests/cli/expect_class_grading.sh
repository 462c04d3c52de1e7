#!/usr/bin/env bash
# Student mode says what it built, and keeps each student's logs apart (lessons/README.md, "For
# instructors"; lessons/GRADING.md):
#   expect_class_grading.sh BUILD WORK
# grades a class of two students on lesson 03 in the student build BUILD (alice submits the
# solution, bob the read past shared memory), then one student with --submission, and checks that
#   - every lesson's row names the file its kernel came from, marked (submission) or (exercise);
#   - each student's log is their own file, named in the CSV, holding their own verdict;
#   - the grade log's first line says why there is no GPU backend in the words of this build;
#   - a later configure of BUILD that keeps the submission from the cache says so, and
#     -DREDUCELAB_SUBMISSION= goes back to the exercises.
set -uo pipefail
build=$1 work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
# A path as the build names it: relative to the tree where it lies inside it.
shown() { echo "${1#"$root"/}"; }
rm -rf "$work" && mkdir -p "$work/class/alice" "$work/class/bob/lessons/03/exercise"
cp "$root/lessons/03_sequential_addressing/sequential_addressing.cuh" "$work/class/alice/"
cp "$root/tests/grading/submissions/reads_past_shared_memory/sequential_addressing.cuh" \
   "$work/class/bob/lessons/03/exercise/"

bash "$root/lessons/grade.sh" --class "$work/class" 03 --build "$build" --case-timeout 10 >"$work/class.out" 2>&1 \
  || fail "grade.sh --class failed: $(tail -5 "$work/class.out")"
cat "$work/class.out"
csv=$work/class-results.csv
[ -f "$csv" ] || fail "no $csv"
head -1 "$csv" | grep -qx "student,lesson,result,first failure,log" || fail "CSV header: $(head -1 "$csv")"
grep -qF "kernel: $(shown "$work/class/alice/sequential_addressing.cuh") (submission)" "$work/class.out" \
  || fail "alice's row does not name her file"
grep -qF "kernel: $(shown "$work/class/bob/lessons/03/exercise/sequential_addressing.cuh") (submission)" "$work/class.out" \
  || fail "bob's row does not name his file"
alice_log=$(awk -F, '$1 == "alice" { print $NF }' "$csv")
bob_log=$(awk -F, '$1 == "bob" { print $NF }' "$csv")
[ -n "$alice_log" ] && [ -n "$bob_log" ] && [ "$alice_log" != "$bob_log" ] \
  || fail "the two students' logs are not apart: '$alice_log' and '$bob_log'"
for who in alice bob; do
  log=${who}_log
  log=${!log}
  [[ $log = /* ]] || log=$root/$log
  [ -f "$log" ] || fail "$who's log $log does not exist"
done
[[ $alice_log = /* ]] || alice_log=$root/$alice_log
[[ $bob_log = /* ]] || bob_log=$root/$bob_log
grep -q "^result: PASSED" "$alice_log" || fail "alice's log has not her verdict: $(cat "$alice_log")"
grep -q "^result: FAILED" "$bob_log" || fail "bob's log has not his verdict: $(cat "$bob_log")"
grep -q "^alice,03_sequential_addressing,PASSED," "$csv" || fail "alice's row: $(cat "$csv")"
grep -q "^bob,03_sequential_addressing,FAILED,\"\[out of range\]" "$csv" || fail "bob's row: $(cat "$csv")"
if ! nvidia-smi -L >/dev/null 2>&1; then
  grep -qF "backend sim (CPU SIMT simulator; this build has no GPU backend: lessons/grade.sh builds for the simulator only where nvidia-smi finds no GPU)" "$alice_log" \
    || grep -qF "backend: sim (CPU SIMT simulator; this build has no GPU backend: lessons/grade.sh builds for the simulator only where nvidia-smi finds no GPU)" "$alice_log" \
    || fail "the log does not say why there is no GPU backend: $(head -3 "$alice_log")"
  grep -q "no CUDA compiler" "$alice_log" && fail "the log blames a missing CUDA compiler: $(head -3 "$alice_log")"
fi

# One student, in the sandbox: the row names the file, the build itself still builds the exercises.
bash "$root/lessons/grade.sh" --submission "$work/class/bob" 03 --build "$build" --backend sim --case-timeout 10 \
  >"$work/one.out" 2>&1
cat "$work/one.out"
grep -qF "kernel: $(shown "$work/class/bob/lessons/03/exercise/sequential_addressing.cuh") (submission)" "$work/one.out" \
  || fail "--submission: the row does not name the file"
grep -qF "built and run in the sandbox" "$work/one.out" || fail "--submission: no word on the sandbox"
grep -q "^result: FAILED" "$build/grades/bob/03_sequential_addressing.log" || fail "--submission: no verdict in $build/grades/bob/"
# --unsafe: the build itself builds the submission, and its last line says so.
bash "$root/lessons/grade.sh" --unsafe --submission "$work/class/bob" 03 --build "$build" --backend sim --case-timeout 10 \
  >"$work/unsafe.out" 2>&1
grep -qF "now builds $work/class/bob's files" "$work/unsafe.out" || fail "--unsafe --submission: no word on what the build now holds"
# A configure that keeps the submission from the cache is a warning, not silence.
cmake -B "$build" "$root" >"$work/again.out" 2>&1 || fail "reconfigure failed: $(tail -5 "$work/again.out")"
# (CMake wraps a warning's lines: read it as one.)
tr '\n' ' ' <"$work/again.out" | tr -s ' ' | grep -q "Student mode: grading the files in $work/class/bob, as the last configure of" \
  || fail "a kept submission was not said: $(cat "$work/again.out")"
grep -qF "Lesson 03: kernel $(shown "$work/class/bob/lessons/03/exercise/sequential_addressing.cuh") (submission)" "$work/again.out" \
  || fail "configure did not say where lesson 03's kernel came from"
cmake -B "$build" -DREDUCELAB_SUBMISSION= "$root" >"$work/back.out" 2>&1 || fail "reconfigure failed"
grep -qF "Lesson 03: kernel lessons/03_sequential_addressing/exercise/sequential_addressing.cuh (exercise)" "$work/back.out" \
  || fail "-DREDUCELAB_SUBMISSION= did not go back to the exercise: $(grep 'Lesson 03' "$work/back.out")"
echo "class grading: each student's file named, logs apart, kept submission said"

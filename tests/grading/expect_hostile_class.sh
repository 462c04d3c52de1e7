#!/usr/bin/env bash
# Hostile submissions are contained and classed (lessons/GRADING.md):
#   expect_hostile_class.sh BUILD WORK
# grades, with lessons/grade.sh --class on lesson 03 (sequential addressing) in the student build BUILD, a class of alice
# (the solution), bob (the untouched exercise) and each submission in
# tests/grading/submissions/hostile/ (lesson 03's untouched exercise plus code that runs before
# main), then checks that
#   - alice passes and bob fails, as if the others were not there, and the CSV has one row each;
#   - each hostile submission fails with the class its EXPECT names (the CSV row holds it);
#   - nothing outside the students' own build folders changed: the class folder (every file, byte
#     for byte), the places writes_outside aims at, and no classmate's kernel in anyone's log.
set -euo pipefail
build=$1 work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
hostile=$root/tests/grading/submissions/hostile
# The lesson the hostile files are for, found by their file name (lessons may be renumbered).
exercise=$(ls "$root"/lessons/*/exercise/sequential_addressing.cuh)
name=$(basename "$(dirname "$(dirname "$exercise")")")
nn=${name%%_*}
rm -rf "$work" && mkdir -p "$work/class/alice" "$work/class/bob"
cp "$root/lessons/$name/sequential_addressing.cuh" "$work/class/alice/"
cp "$exercise" "$work/class/bob/"
for d in "$hostile"/*/; do cp -r "$d" "$work/class/$(basename "$d")"; done
# The class folder as it was, every file's bytes; and the places writes_outside aims at.
snapshot() { (cd "$work/class" && find . -type f -print0 | sort -z | xargs -0 sha256sum; find . | sort); }
snapshot >"$work/before.txt"
targets=(/tmp/reducelab-hostile-was-here "$HOME/reducelab-hostile" /root/reducelab-hostile
  "$work/class/reducelab-hostile" "$work/class/writes_outside/reducelab-hostile")
for t in "${targets[@]}"; do [ ! -e "$t" ] || fail "$t exists before the test: remove it"; done

start=$SECONDS
bash "$root/lessons/grade.sh" --class "$work/class" "$nn" --build "$build" --case-timeout 10 --time-limit 60 \
  >"$work/class.out" 2>&1 || fail "grade.sh --class failed: $(tail -5 "$work/class.out")"
cat "$work/class.out"
echo "graded in $((SECONDS - start)) s"

csv=$work/class-results.csv
[ "$(head -1 "$csv")" = "student,lesson,result,first failure,log" ] || fail "CSV header: $(head -1 "$csv")"
[ "$(($(wc -l <"$csv") - 1))" -eq "$(find "$work/class" -mindepth 1 -maxdepth 1 -type d | wc -l)" ] \
  || fail "the CSV does not have one row per student: $(cat "$csv")"
grep -q "^alice,$name,PASSED," "$csv" || fail "alice's solution does not pass: $(grep ^alice "$csv")"
grep -q "^bob,$name,FAILED,\"\[lost input\]" "$csv" || fail "bob's exercise: $(grep ^bob "$csv")"
for d in "$hostile"/*/; do
  who=$(basename "$d")
  row=$(grep "^$who,$name," "$csv") || fail "no row for $who"
  [[ $row == "$who,$name,FAILED,"* ]] || fail "$who is not FAILED: $row"
  while IFS= read -r expect || [ -n "$expect" ]; do
    [ -n "$expect" ] || continue
    grep -qF -- "$expect" <<<"$row" || fail "$who was not classed '$expect': $row"
  done <"$d/EXPECT"
  echo "$who: $(cut -d, -f4- <<<"$row" | sed 's/,[^,]*$//')"
done

snapshot >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" >&2 || fail "the class folder changed during grading"
for t in "${targets[@]}"; do [ ! -e "$t" ] || fail "a submission wrote $t"; done
# The solution's own comment is in alice's file alone: no other student's log may hold it.
marker="THE IDEA: halve the stride instead of doubling it"
for log in "$build"/grades/*/$name.log; do
  [ "$(basename "$(dirname "$log")")" = alice ] && continue
  ! grep -qF "$marker" "$log" || fail "$log holds alice's kernel"
done
# reads_classmate lists the class folder: only its own folder may be there.
seen=$(grep "^found" "$build/grades/reads_classmate/$name.log" | grep -v "/reads_classmate" || true)
[ -z "$seen" ] || fail "reads_classmate found files beside its folder: $seen"
grep -q "^listing " "$build/grades/reads_classmate/$name.log" \
  || fail "reads_classmate's listing is not in its log (did it run?)"
echo "hostile submissions: each classed, the class graded as if they were not there, nothing outside their folders changed"

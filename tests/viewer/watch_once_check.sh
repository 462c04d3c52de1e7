#!/usr/bin/env bash
# reducelab_viewer --watch 03 --watch-once, for real: a student build configured in this test's own
# folder (WORK) with a submission folder holding a copy of lesson 03's exercise, so that the course's
# own files are never touched; then three rounds, each a save of that copy: the untouched exercise
# (compiles, fails the grader, its tree differs from the solution's), a typo (the first compiler
# error as file:line: message), and the solution (passes, every write matches).
# Environment: VIEWER, SOURCE (the course's tree), BUILD (the viewer's build, whose bin/ has the
# solutions), WORK (kept between runs, so the student build is incremental), CMAKE, GENERATOR,
# LAUNCHER (the viewer build's compiler launcher, such as ccache; may be empty).
set -uo pipefail
lesson=03_sequential_addressing
kernel=sequential_addressing.cuh
[ -x "$BUILD/bin/$lesson" ] || { echo "skipped: $BUILD/bin/$lesson (the solution) is not built"; exit 77; }
sub=$WORK/submission
student=$WORK/student-build
mkdir -p "$sub"
# put FILE: the submission's kernel becomes FILE; written only where it differs, since a copy that
# changes nothing would still be a newer file to the build.
put() { cmp -s "$1" "$sub/$kernel" || cp "$1" "$sub/$kernel"; }
put "$SOURCE/lessons/$lesson/exercise/$kernel"
if [ ! -f "$student/CMakeCache.txt" ]; then
  start=$SECONDS
  # As lessons/grade.sh configures build-student, on the simulator only, and at -O1 as CI's
  # self-check builds it (about half the compile time of -O3; the grading's speed hardly matters).
  "$CMAKE" -S "$SOURCE" -B "$student" -G "$GENERATOR" -DCMAKE_BUILD_TYPE=Release -DREDUCELAB_STUDENT=ON \
    -DREDUCELAB_TESTS=OFF -DREDUCELAB_VIEWER=OFF -DREDUCELAB_CUDA=OFF "-DREDUCELAB_SUBMISSION=$sub" \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    ${LAUNCHER:+"-DCMAKE_CXX_COMPILER_LAUNCHER=$LAUNCHER"} >"$WORK/configure.log" 2>&1 \
    || { tail -5 "$WORK/configure.log"; echo "FAIL: cannot configure the student build"; exit 1; }
  echo "configured the student build in $((SECONDS - start)) s"
fi
# round WANT_RC: one round, its report in $out, its exit code checked.
round() {
  local start=$SECONDS rc
  out=$("$VIEWER" --watch 03 --student-build "$student" --solution-build "$BUILD" --watch-once 2>&1)
  rc=$?
  echo "$out"
  echo "(exit $rc, $((SECONDS - start)) s)"
  [ $rc -eq "$1" ] || { echo "FAIL: exit $rc, expected $1"; exit 1; }
}
expect() { grep -Eq -- "$1" <<<"$out" || { echo "FAIL: no line matching '$1'"; exit 1; }; }
# The watched file as the report names it: its path from kernel-sources.txt (relative to the tree
# when WORK lies inside it).
file_re="(.*/)?submission/$kernel"

echo "== 1. the untouched exercise"
round 1
expect "^watch $lesson: $file_re, round 1$"
expect "^result: FAILED \[[a-z ]+\]: (variant [a-z_]+ )?n=[0-9]+ "
expect "^hint: .*--hint [123]"
expect "^traces: yours [0-9]+ events, the solution's [0-9]+; same input \(n=1000, block 32\); first difference: launch "

echo "== 2. a typo"
{ cat "$SOURCE/lessons/$lesson/exercise/$kernel"; echo "this is not C++;"; } >"$WORK/typo.cuh"
put "$WORK/typo.cuh"
round 1
expect "^result: DOES NOT COMPILE: $file_re:[0-9]+: "

echo "== 3. the solution, submitted"
put "$SOURCE/lessons/$lesson/$kernel"
round 0
expect "^result: PASSED: all [0-9]+ cases right$"
expect "^traces: .*same input \(n=1000, block 32\); no write differs$"
echo "PASS"

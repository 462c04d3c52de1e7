#!/usr/bin/env bash
# The student grader. Builds every lesson from its exercise (lessons/NN_slug/exercise/), or from a
# student's files, and grades each kernel on the graded cases: on the GPU when there is one, else on
# the CPU simulator, which names the barrier, block and thread of a deadlock or a bad access. A hang
# is stopped after --case-timeout seconds without progress.
#
#   bash lessons/grade.sh [NN ...]                 grade the exercises in this tree (all, or lessons NN)
#   bash lessons/grade.sh --submission DIR [NN ...]  grade one student's files (found in DIR by file name)
#   bash lessons/grade.sh --class DIR              grade every student folder in DIR; writes DIR-results.csv
#   bash lessons/grade.sh --self-check [NN ...]    CI: every exercise (or lessons NN) compiles, fails
#                                                  untouched, passes solved; broken submissions diagnosed
# Options: --case-timeout S (default 20), --backend sim|gpu, --build DIR (default build-student),
#          --skip-solutions (self-check: leave out "passes solved", which rebuilds every lesson; CI
#          grades the solutions in its own build instead, and the broken submissions still go
#          through a submission folder).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=$root/build-student
timeout_s=20
backend=""
submission=""
class=""
self_check=0
skip_solutions=0
lessons=()
die() { echo "error: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --submission) [ $# -ge 2 ] || die "--submission needs a folder"; submission=$2; shift 2 ;;
    --class) [ $# -ge 2 ] || die "--class needs a folder"; class=$2; shift 2 ;;
    --case-timeout) [ $# -ge 2 ] || die "--case-timeout needs seconds"; timeout_s=$2; shift 2 ;;
    --backend) [ $# -ge 2 ] || die "--backend needs sim or gpu"; backend=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || die "--build needs a folder"; build=$(realpath -m "$2"); shift 2 ;;
    --self-check) self_check=1; shift ;;
    --skip-solutions) skip_solutions=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    [0-9][0-9]) lessons+=("$1"); shift ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $timeout_s =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--case-timeout must be a number of seconds (got '$timeout_s')"
case $backend in ""|sim|gpu) ;; *) die "--backend must be sim or gpu (got '$backend')" ;; esac
for d in "$submission" "$class"; do
  [ -z "$d" ] || [ -d "$d" ] || die "not a folder: $d"
done

# REDUCELAB_SKIP_DEPS=1 where apt cannot run (the GPU machine: its packages travel with the call);
# REDUCELAB_CMAKE_ARGS adds configure options there. REDUCELAB_STUDENT_CXX_FLAGS replaces the student
# build's optimisation flags (CI's self-check: "-O1 -DNDEBUG" compiles in about half the time of
# -O3; its untouched exercises fail on their first cases, so the grading's own speed hardly matters).
[ "${REDUCELAB_SKIP_DEPS:-0}" = 1 ] || bash common/scripts/ensure-deps.sh >&2 || exit 2
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
# nvcc compiles the GPU side only where a GPU will run it; elsewhere the simulator grades, and the
# build takes half the time.
cuda=OFF
if nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null; then cuda=ON; fi

all_lessons() {
  for d in lessons/[0-9][0-9]_*/; do
    d=${d%/}
    [ -d "$d/exercise" ] && echo "${d#lessons/}"
  done
}
selected() {
  local name
  for name in $(all_lessons); do
    if [ ${#lessons[@]} -eq 0 ] || printf '%s\n' "${lessons[@]}" | grep -qx "${name%%_*}"; then echo "$name"; fi
  done
}

# configure SUBMISSION_DIR: (re)configures the student build for these files.
configure() {
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDUCELAB_STUDENT=ON -DREDUCELAB_TESTS=OFF \
    -DREDUCELAB_VIEWER=OFF -DREDUCELAB_CUDA=$cuda "-DREDUCELAB_SUBMISSION=$1" ${REDUCELAB_CMAKE_ARGS:-} \
    ${REDUCELAB_STUDENT_CXX_FLAGS:+"-DCMAKE_CXX_FLAGS_RELEASE=$REDUCELAB_STUDENT_CXX_FLAGS"} \
    >"$build.configure.log" 2>&1 \
    || { tail -5 "$build.configure.log" >&2; die "cannot configure the student build (see $build.configure.log)"; }
  cmake --build "$build" --target reducelab_harness >"$build.harness.log" 2>&1 \
    || die "the shared harness does not build (see $build.harness.log): not a student's error"
}

# grade_all LABEL: builds and grades each selected lesson; prints a table; sets passed/failed/skipped
# and writes one "label,lesson,result,detail" row per lesson to $rows.
grade_all() {
  local label=$1 name result detail log hint targets bug
  passed=0 failed=0 skipped=0
  targets=$(cmake --build "$build" --target help 2>/dev/null)  # what this configuration can build
  printf '%-32s %-15s %s\n' "lesson" "result" "first failing case / note"
  for name in $(selected); do
    log=$build/grade-$name.log
    if ! grep -q "^$name: " <<<"$targets"; then
      # Not configured here: lesson 17 exists only where CUDA and NCCL were found.
      result=SKIPPED
      detail="this build has no $name (it needs CUDA and NCCL): no version to grade here"
    elif ! cmake --build "$build" --target "$name" >"$log" 2>&1; then
      result="DOES NOT COMPILE"
      detail=$(grep -m1 -E "error" "$log" | sed "s|$root/||g" | cut -c1-220)
      hint="the first compiler error is above; the full log is $log"
    else
      "$build/bin/$name" --grade --case-timeout "$timeout_s" ${backend:+--backend "$backend"} >"$log" 2>&1
      result=$(sed -n 's/^result: //p' "$log" | tail -1)
      detail=$(sed -n 's/^first failure: //p' "$log" | tail -1)
      bug=$(sed -n 's/^bug class: \([^(]*[^ (]\).*/\1/p' "$log" | tail -1)
      [ -z "$bug" ] || detail="[$bug] $detail"
      hint=$(sed -n 's/^hint: //p' "$log" | tail -1)
      [ -n "$result" ] || { result="FAILED"; detail=$(tail -1 "$log" | cut -c1-220); }
      [ "$result" = SKIPPED ] && detail=$(grep -m1 "no .* version" "$log")
    fi
    printf '%-32s %-15s %s\n' "$name" "$result" "$detail"
    [ "$result" = FAILED ] || [ "$result" = "DOES NOT COMPILE" ] && printf '%-32s %-15s hint: %s\n' "" "" "$hint"
    case $result in PASSED) passed=$((passed + 1)) ;; SKIPPED) skipped=$((skipped + 1)) ;; *) failed=$((failed + 1)) ;; esac
    printf '%s,%s,%s,"%s"\n' "$label" "$name" "$result" "${detail//\"/\'}" >>"$rows"
  done
  local note=""
  [ $skipped -gt 0 ] && note=" ($skipped skipped: no version on this backend)"
  echo "score: $passed of $((passed + failed)) exercises pass$note"
}

mkdir -p "$build"
rows=$build/grades.csv
: >"$rows"

if [ $self_check -eq 1 ]; then
  # 1. Untouched, every exercise must compile and fail: none may be solved already.
  configure ""
  echo "== the untouched exercises (each must fail) =="
  grade_all untouched
  [ $passed -eq 0 ] && [ $failed -gt 0 ] || die "self-check: $passed untouched exercises pass (expected none)"
  if grep -q "DOES NOT COMPILE" "$rows"; then die "self-check: an untouched exercise does not compile"; fi
  # 2. Each solution copied over its exercise must pass.
  if [ $skip_solutions -eq 1 ]; then
    echo "== the solutions: left out (--skip-solutions) =="
  else
    solved=$(mktemp -d)
    for name in $(selected); do
      # Every file of the exercise but its hints: a kernel header, or lesson 16's plan (axes_plan.cpp).
      for f in lessons/$name/exercise/*; do
        [ "$(basename "$f")" = HINTS.md ] || cp "lessons/$name/$(basename "$f")" "$solved/"
      done
    done
    configure "$solved"
    echo "== the solutions, submitted as exercises (each must pass) =="
    : >"$rows"
    grade_all solved
    rm -rf "$solved"
    [ $failed -eq 0 ] || die "self-check: $failed solutions fail the grader"
  fi
  # 3. Broken submissions the grader must diagnose, not hang on.
  echo "== submissions that hang or fault (each must fail with the simulator's report, in time) =="
  backend=sim  # the diagnoses under test are the simulator's; a GPU would only hang or read garbage
  chosen=("${lessons[@]}")
  diagnosed=0
  for case_dir in tests/grading/submissions/*/; do
    want=$(cat "$case_dir/LESSON")
    # With lessons named (--self-check 13 14), only their broken submissions.
    if [ ${#chosen[@]} -gt 0 ] && ! printf '%s\n' "${chosen[@]}" | grep -qx "$want"; then continue; fi
    configure "$root/$case_dir"
    lessons=("$want")
    : >"$rows"
    start=$SECONDS
    grade_all "$(basename "$case_dir")"
    # Every line of EXPECT is a phrase the report must contain, as written: "[race]" (the bug class
    # the grader names) and a phrase of the diagnosis, say.
    while IFS= read -r expect || [ -n "$expect" ]; do
      [ -n "$expect" ] || continue
      grep -qF -- "$expect" "$rows" || die "self-check: $(basename "$case_dir") was not reported as '$expect': $(cat "$rows")"
    done <"$case_dir/EXPECT"
    echo "reported as expected ($(paste -sd'|' "$case_dir/EXPECT")) in $((SECONDS - start)) s"
    diagnosed=$((diagnosed + 1))
  done
  configure ""  # leave the build as the plain student build
  solutions="passes with its solution"
  [ $skip_solutions -eq 1 ] && solutions="(solutions not graded here)"
  echo "self-check: every exercise compiles, fails untouched $solutions; $diagnosed broken submissions diagnosed"
  exit 0
fi

if [ -n "$class" ]; then
  results=$(realpath -m "$class")-results.csv
  echo "student,lesson,result,first failure" >"$results"
  for student in "$class"/*/; do
    student=${student%/}
    echo "== $(basename "$student") =="
    configure "$(realpath "$student")"
    : >"$rows"
    grade_all "$(basename "$student")"
    cat "$rows" >>"$results"
  done
  configure ""
  echo "class results: $results"
  exit 0
fi

configure "${submission:+$(realpath "$submission")}"
grade_all "${submission:-exercises}"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# The student grader. Builds every lesson from its exercise (lessons/NN_slug/exercise/), or from a
# student's files, and grades each kernel on the graded cases: on the GPU when there is one, else on
# the CPU simulator, which names the barrier, block and thread of a deadlock or a bad access. A hang
# is stopped after --case-timeout seconds without progress.
#
#   bash lessons/grade.sh [NN ...]                 grade the exercises in this tree (all, or lessons NN)
#   bash lessons/grade.sh --submission DIR [NN ...]  grade one student's files (found in DIR by file name)
#   bash lessons/grade.sh --class DIR [NN ...]     grade every student folder in DIR; writes DIR-results.csv
#   bash lessons/grade.sh --self-check [NN ...]    CI: every exercise (or lessons NN) compiles, fails
#                                                  untouched, passes solved; broken submissions diagnosed
# Options: --case-timeout S (seconds, more than 0, at most 3600; default 20), --backend sim|gpu,
#          --build DIR (default build-student), --skip-solutions (self-check: leave out "passes
#          solved", which rebuilds every lesson; CI grades the solutions in its own build instead,
#          and the broken submissions still go through a submission folder), --time-limit S (each
#          submission's build and run of a lesson, in seconds; default 600), --unsafe (--submission
#          and --class without the sandbox: for one's own code only).
# --submission and --class build and run every submission in a sandbox and decide its verdict
# outside it (lessons/GRADING.md); where the sandbox cannot start they refuse, in one line.
# Under each lesson's row: the file its kernel was built from (the exercise, a submission's file, or
# the exercise where the submission has none). Logs: BUILD/grades/LABEL/NN_slug.log, LABEL being
# "exercises", the submission folder's name, or each student's in --class.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=$root/build-student
timeout_s=20
backend=""
submission=""
class=""
box=""
self_check=0
skip_solutions=0
unsafe=0
time_limit=600
lessons=()
die() { echo "error: $*" >&2; exit 2; }
# value OPTION WHAT ARGS...: the value after OPTION, which must be there and not be empty.
value() {
  [ $# -ge 4 ] || die "$1 needs $2"
  [ -n "$4" ] || die "$1 needs $2 (it was given an empty one)"
}
while [ $# -gt 0 ]; do
  case $1 in
    --submission) value "$1" "a folder" "$@"; submission=$2; shift 2 ;;
    --class) value "$1" "a folder" "$@"; class=$2; shift 2 ;;
    --case-timeout) value "$1" "seconds" "$@"; timeout_s=$2; shift 2 ;;
    --backend) value "$1" "sim or gpu" "$@"; backend=$2; shift 2 ;;
    --build) value "$1" "a folder" "$@"; build=$(realpath -m "$2"); shift 2 ;;
    --self-check) self_check=1; shift ;;
    --skip-solutions) skip_solutions=1; shift ;;
    --unsafe) unsafe=1; shift ;;
    --time-limit) value "$1" "seconds" "$@"; time_limit=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    [0-9][0-9]) [ -d "$(echo lessons/"$1"_*/)" ] || die "there is no lesson $1 (graded lessons are 01 to 22)"; lessons+=("$1"); shift ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ $timeout_s =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--case-timeout must be a number of seconds such as 20 (got '$timeout_s')"
awk "BEGIN { exit !($timeout_s > 0) }" || die "--case-timeout must be more than 0 (got $timeout_s)"
awk "BEGIN { exit !($timeout_s <= 3600) }" || die "--case-timeout $timeout_s is too large (at most 3600 seconds)"
[[ $time_limit =~ ^[1-9][0-9]*$ ]] && [ "$time_limit" -le 86400 ] \
  || die "--time-limit must be a whole number of seconds from 1 to 86400 (got '$time_limit')"
case $backend in ""|sim|gpu) ;; *) die "--backend must be sim or gpu (got '$backend')" ;; esac
[ -z "$submission" ] || [ -z "$class" ] || die "give --submission (one student) or --class (every student), not both"
for d in "$submission" "$class"; do
  [ -z "$d" ] || [ -d "$d" ] || die "not a folder: $d"
done

# REDUCELAB_SKIP_DEPS=1 where apt cannot run (the GPU machine: its packages travel with the call);
# REDUCELAB_CMAKE_ARGS adds configure options there. REDUCELAB_STUDENT_CXX_FLAGS replaces the student
# build's optimisation flags (CI's self-check: "-O1 -DNDEBUG" compiles in about half the time of
# -O3; its untouched exercises fail on their first cases, so the grading's own speed hardly matters).
[ "${REDUCELAB_SKIP_DEPS:-0}" = 1 ] || bash common/scripts/ensure-deps.sh >&2 || exit 2

source "$root/lessons/sandbox.sh"
sandbox_limit_shown=$time_limit
boxed=0
if [ -n "$submission$class" ] && [ $unsafe -eq 0 ]; then
  problem=$(sandbox_problem)
  [ -z "$problem" ] || die "cannot grade submissions safely: $problem (--unsafe grades without a sandbox, for your own code only)"
  boxed=1
fi

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
# nvcc compiles the GPU side only where a GPU will run it; elsewhere the simulator grades, and the
# build takes half the time.
cuda=OFF
cuda_off_why="lessons/grade.sh found no CUDA compiler (nvcc)"
if ! nvidia-smi -L >/dev/null 2>&1; then
  cuda_off_why="lessons/grade.sh builds for the simulator only where nvidia-smi finds no GPU"
elif command -v nvcc >/dev/null; then
  cuda=ON
fi

all_lessons() {
  for d in lessons/[0-9][0-9]_*/; do
    d=${d%/}
    [ -d "$d/exercise" ] && echo "${d#lessons/}"
  done
}
# questions_only NAME: lesson NAME's exercise hands out no file to edit, only its questions
# (lesson 00): nothing to build or grade, its answers checked all the same.
questions_only() {
  local f
  for f in "$root"/lessons/"$1"/exercise/*; do
    case $(basename "$f") in HINTS.md | answers_*.txt) ;; *) return 1 ;; esac
  done
}
selected() {
  local name
  for name in $(all_lessons); do
    if [ ${#lessons[@]} -eq 0 ] || printf '%s\n' "${lessons[@]}" | grep -qx "${name%%_*}"; then echo "$name"; fi
  done
}

# configure SUBMISSION_DIR LABEL: (re)configures the student build for these files; its logs go to
# BUILD/grades/LABEL/ (each student's apart from the others').
configure() {
  configured_files=$1
  logs=$build/grades/$2
  rm -rf "$logs"
  mkdir -p "$logs"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDUCELAB_STUDENT=ON -DREDUCELAB_TESTS=OFF \
    -DREDUCELAB_VIEWER=OFF -DREDUCELAB_CUDA=$cuda "-DREDUCELAB_CUDA_OFF_WHY=$cuda_off_why" \
    "-DREDUCELAB_SUBMISSION=$1" ${REDUCELAB_CMAKE_ARGS:-} \
    ${REDUCELAB_STUDENT_CXX_FLAGS:+"-DCMAKE_CXX_FLAGS_RELEASE=$REDUCELAB_STUDENT_CXX_FLAGS"} \
    >"$logs/configure.log" 2>&1 \
    || { tail -5 "$logs/configure.log" >&2; die "cannot configure the student build (see $logs/configure.log)"; }
  cmake --build "$build" --target reducelab_harness >"$logs/harness.log" 2>&1 \
    || die "the shared harness does not build (see $logs/harness.log): not a student's error"
}

# The file lesson NAME's kernel was built from, as configure recorded it (BUILD/kernel-sources.txt).
kernel_source() {
  awk -F'\t' -v name="$1" '$1 == name { print $3 " (" $2 ")"; found = 1 } END { if (!found) print "none: not in this build" }' \
    "${box:-$build}/kernel-sources.txt" 2>/dev/null
}

# grade_boxed NAME LOG: lesson NAME of the submission in $box, built and run in the sandbox, its
# verdict decided by the trusted build's NAME from the outputs it handed back; sets result, detail
# and hint. LOG: the verdict, then what the submission printed (shown, never read).
grade_boxed() {
  local name=$1 log=$2 seed class outputs=$logs/$name.outputs printed=$logs/$name.printed
  result=FAILED hint="" detail=""
  sandboxed "$root" "$build" "$box" "$box_submission" "$class_dir" "$time_limit" "$printed" -- \
    cmake --build "$build" --target "$name"
  class=$(sandbox_class "$printed")
  if [ -n "$class" ] || [ $sandbox_rc -ne 0 ]; then
    { echo "== the build, in the sandbox =="; cat "$printed"; } >"$log"
    if [ -n "$class" ]; then
      detail="[sandbox] the build $class"
    else
      result="DOES NOT COMPILE"
      detail=$(grep -m1 -E "error" "$printed" | sed "s|$root/||g" | cut -c1-220)
    fi
    hint="the full log is $log"
    return
  fi
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  local sandbox_loopback=""
  [[ $name != *_multi_gpu_nccl ]] || sandbox_loopback=1  # NCCL's bootstrap: TCP to itself
  sandboxed "$root" "$build" "$box" "$box_submission" "$class_dir" "$time_limit" "$printed" -- \
    "$build/bin/$name" --grade --case-timeout "$timeout_s" ${backend:+--backend "$backend"} \
    --grade-outputs-fd 3 --grade-seed "$seed" 3>"$outputs"
  class=$(sandbox_class "$printed")
  if [ -n "$class" ]; then
    detail="[sandbox] $class"
    hint="what it printed is in $log"
    echo "result: FAILED" >"$log.verdict"
  else
    "$trusted/$name" --grade --grade-check "$outputs" --grade-seed "$seed" --case-timeout "$timeout_s" \
      ${backend:+--backend "$backend"} >"$log.verdict" 2>&1
    result=$(sed -n 's/^result: //p' "$log.verdict" | tail -1)
    detail=$(sed -n 's/^first failure: //p' "$log.verdict" | tail -1)
    local bug
    bug=$(sed -n 's/^bug class: \([^(]*[^ (]\).*/\1/p' "$log.verdict" | tail -1)
    [ -z "$bug" ] || detail="[$bug] $detail"
    hint=$(sed -n 's/^hint: //p' "$log.verdict" | tail -1)
    [ -n "$result" ] || { result=FAILED; detail="the trusted grader gave no verdict: $(tail -1 "$log.verdict")"; }
    [ "$result" = SKIPPED ] && detail=$(grep -m1 "no .* version" "$log.verdict")
  fi
  { cat "$log.verdict"; [ -z "$class" ] || echo "the sandbox: $class"
    echo "== what the submission printed (shown, never read for the verdict; cut at $((sandbox_output >> 10)) KiB) =="
    cat "$printed"; } >"$log"
  rm -f "$log.verdict" "$printed"
}

# box_prepare DIR LABEL: the student's own copy of the trusted build ($box), configured for the
# files in DIR inside the sandbox (CMake reads only their names, but a student's folder is theirs).
box_prepare() {
  box=$build/boxes/$2 box_submission=$1
  logs=$build/grades/$2
  rm -rf "$box" "$logs"
  mkdir -p "$box" "$logs"
  (cd "$build" && tar --exclude=./grades --exclude=./boxes --exclude=./trusted -cf - .) | tar -C "$box" -xf -
  [ "$(id -u)" -ne 0 ] || chown -R 65534:65534 "$box"
  sandboxed "$root" "$build" "$box" "$box_submission" "$class_dir" "$time_limit" "$logs/configure.log" -- \
    cmake -S "$root" -B "$build" "-DREDUCELAB_SUBMISSION=$box_submission"
  [ $sandbox_rc -eq 0 ] || die "cannot configure the student build in the sandbox${sandbox_refused:+ (the sandbox refused: $sandbox_refused)} (see $logs/configure.log)"
}

# The trusted build: the exercises' executables, built outside any sandbox from the course's own
# files; they draw the inputs and decide every verdict (--grade-check).
build_trusted() {
  configure "" trusted
  local name
  trusted=$build/trusted
  rm -rf "$trusted" && mkdir -p "$trusted"
  cmake --build "$build" --target reducelab_sandbox_watch >"$logs/sandbox_watch.log" 2>&1 \
    || die "the sandbox's watch does not build (see $logs/sandbox_watch.log): not a student's error"
  cp "$build/bin/reducelab_sandbox_watch" "$trusted/"
  sandbox_watch=$trusted/reducelab_sandbox_watch
  for name in $(selected); do
    grep -q "^$name: " <<<"$(cmake --build "$build" --target help 2>/dev/null)" || continue
    cmake --build "$build" --target "$name" >"$logs/$name.log" 2>&1 \
      || die "the trusted build of $name does not build (see $logs/$name.log): not a student's error"
    cp "$build/bin/$name" "$trusted/"
  done
}

# check_answers NAME LABEL: where the lesson's exercise has graded questions and its answers file is
# there (answers_NN.txt anywhere in the submission's folder, else in lessons/NAME/exercise/), prints which
# answers are right. The trusted executable checks them where there is one: an answers file is data,
# read, never run. Kept apart from the kernel's verdict and from the score.
check_answers() {
  local name=$1 exe file lines from
  # A submission's answers file is found by name in any subfolder, as its kernel headers are.
  from=${box_submission:-${configured_files:-}}
  if [ -n "$from" ]; then
    file=$(find "$from" -name "answers_${name%%_*}.txt" -type f 2>/dev/null | sort | head -1)
  else
    file=$root/lessons/$name/exercise/answers_${name%%_*}.txt
  fi
  exe=${trusted:+$trusted/$name}
  [ -n "$exe" ] && [ -x "$exe" ] || exe=$build/bin/$name
  [ -n "$file" ] && [ -f "$file" ] && [ -x "$exe" ] && "$exe" --help 2>/dev/null | grep -q -- --check-answers || return 0
  lines=$("$exe" --check-answers "$file" 2>&1 | grep -v "^checking the answers")
  printf '%-32s %-15s %s\n' "" "" "$(tail -1 <<<"$lines") (${file#"$root"/})"
  grep -E "^  " <<<"$lines" | sed "s/^  /$(printf '%-32s %-15s   ' '' '')/" || true
}

# grade_all LABEL: builds and grades each selected lesson; prints a table; sets passed/failed/skipped
# and writes one "label,lesson,result,detail,log" row per lesson to $rows. Logs in $logs (configure's).
grade_all() {
  local label=$1 name result detail log hint targets bug
  passed=0 failed=0 skipped=0
  targets=$(cmake --build "$build" --target help 2>/dev/null)  # what this configuration can build
  printf '%-32s %-15s %s\n' "lesson" "result" "first failing case / note"
  for name in $(selected); do
    log=$logs/$name.log
    if questions_only "$name"; then
      # Its program checks the answers: the trusted one when boxed, else this build's.
      [ $boxed -eq 1 ] || cmake --build "$build" --target "$name" >"$log" 2>&1
      printf '%-32s %-15s %s\n' "$name" "-" "no kernel to grade: the exercise is its questions"
      check_answers "$name" "$label"
      continue
    fi
    if ! grep -q "^$name: " <<<"$targets"; then
      # Not configured here: lesson 22 exists only where CUDA and NCCL were found.
      result=SKIPPED
      detail="this build has no $name (it needs CUDA and NCCL): no version to grade here"
    elif [ $boxed -eq 1 ]; then
      grade_boxed "$name" "$log"
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
    printf '%-32s %-15s kernel: %s\n' "" "" "$(kernel_source "$name")"
    check_answers "$name" "$label"
    case $result in PASSED) passed=$((passed + 1)) ;; SKIPPED) skipped=$((skipped + 1)) ;; *) failed=$((failed + 1)) ;; esac
    [ -f "$log" ] || log=""
    printf '%s,%s,%s,"%s",%s\n' "$label" "$name" "$result" "${detail//\"/\'}" "${log#"$root"/}" >>"$rows"
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
  configure "" untouched
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
      # Every file of the exercise but its hints and answers: a kernel header, or lesson 21's plan
      # (axes_plan.cpp).
      for f in lessons/$name/exercise/*; do
        case $(basename "$f") in HINTS.md | answers_*.txt) ;; *) cp "lessons/$name/$(basename "$f")" "$solved/" ;; esac
      done
    done
    configure "$solved" solved
    echo "== the solutions, submitted as exercises (each must pass) =="
    : >"$rows"
    grade_all solved
    rm -rf "$solved"
    [ $failed -eq 0 ] || die "self-check: $failed solutions fail the grader"
  fi
  # 3. Broken submissions the grader must diagnose, not hang on.
  echo "== submissions that hang or fault (each must fail with the simulator's report, in time) =="
  # The diagnoses under test are the simulator's (a GPU would only hang or read garbage), but for
  # the submissions marked BACKEND gpu.
  chosen=("${lessons[@]}")
  diagnosed=0 left_out=0
  for case_dir in tests/grading/submissions/*/; do
    # hostile/: submissions that attack the grader, graded in the sandbox only (--class; their test
    # is tests/grading/expect_hostile_class.sh), never by the self-check, which runs none.
    [ "$(basename "$case_dir")" != hostile ] || continue
    want=$(cat "$case_dir/LESSON")
    # With lessons named (--self-check 13 14), only their broken submissions.
    if [ ${#chosen[@]} -gt 0 ] && ! printf '%s\n' "${chosen[@]}" | grep -qx "$want"; then continue; fi
    # A submission whose diagnosis only a GPU can make (BACKEND says "gpu", or "gpu N" for N GPUs
    # or more: lesson 16's libraries, lesson 22's collectives) is graded on the GPU where the machine
    # has enough of them, and left out, said so, where it has not.
    backend=sim wants_backend="" wants_gpus=""
    if [ -f "$case_dir/BACKEND" ]; then read -r wants_backend wants_gpus <"$case_dir/BACKEND" || true; fi
    if [ "${wants_backend:-}" = gpu ]; then
      have=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU " || true)
      if [ "${have:-0}" -lt "${wants_gpus:-1}" ]; then
        echo "$(basename "$case_dir"): left out (its diagnosis needs ${wants_gpus:-1} GPU(s); this machine has ${have:-0})"
        left_out=$((left_out + 1))
        continue
      fi
      backend=gpu
    fi
    configure "$root/$case_dir" "$(basename "$case_dir")"
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
  configure "" exercises  # leave the build as the plain student build
  solutions="passes with its solution"
  [ $skip_solutions -eq 1 ] && solutions="(solutions not graded here)"
  gpu_only=""
  [ $left_out -gt 0 ] && gpu_only=" ($left_out left out: they need more GPUs than this machine has)"
  echo "self-check: every exercise compiles, fails untouched $solutions; $diagnosed broken submissions diagnosed$gpu_only"
  exit 0
fi

if [ -n "$class" ]; then
  results=$(realpath -m "$class")-results.csv
  echo "student,lesson,result,first failure,log" >"$results"
  class_dir=$(realpath "$class")
  [ $boxed -eq 0 ] || build_trusted
  for student in "$class"/*/; do
    student=${student%/}
    echo "== $(basename "$student") =="
    if [ $boxed -eq 1 ]; then
      box_prepare "$(realpath "$student")" "$(basename "$student")"
    else
      configure "$(realpath "$student")" "$(basename "$student")"
    fi
    : >"$rows"
    grade_all "$(basename "$student")"
    # Every selected lesson has a row: one missing is the grader's fault, said on the sheet and here,
    # never a silent gap in a student's grades.
    for name in $(selected); do
      grep -q "^[^,]*,$name," "$rows" && continue
      questions_only "$name" && continue
      echo "grade.sh: $name was not graded for $(basename "$student") (a grader fault: run it again)" >&2
      printf '%s,%s,NOT GRADED,"the grader wrote no result for this lesson",\n' "$(basename "$student")" "$name" >>"$rows"
    done
    cat "$rows" >>"$results"
  done
  configure "" exercises
  echo "class results: $results (each student's logs: ${build#"$root"/}/grades/STUDENT/)"
  exit 0
fi

if [ -n "$submission" ] && [ $boxed -eq 1 ]; then
  class_dir=-
  build_trusted
  box_prepare "$(realpath "$submission")" "$(basename "$(realpath "$submission")")"
  grade_all "$(basename "$(realpath "$submission")")"
  echo "built and run in the sandbox, in ${box#"$root"/}; ${build#"$root"/} still builds the exercises"
elif [ -n "$submission" ]; then
  configure "$(realpath "$submission")" "$(basename "$(realpath "$submission")")"
  grade_all "$(basename "$(realpath "$submission")")"
  echo "${build#"$root"/} now builds $(realpath "$submission")'s files: lessons/grade.sh without --submission, or" \
       "cmake --preset student, builds the exercises again"
else
  configure "" exercises
  grade_all exercises
fi
[ $failed -eq 0 ]

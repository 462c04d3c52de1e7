#!/usr/bin/env bash
# Run ON THE GPU MACHINE through the device tool, in one call: build for the visible GPU, run every
# test (GPU ones included), the sanitizers, and the ladder/benchmark. Steps are chosen by arguments:
#   bash tests/device/run.sh build test sanitize ladder launches bench sweep ops axes rows torch beyond grade nccl
#                            bugs hopper hopper-api profile timeline latency hostile trusted
# Needs .carry/ from tests/device/pack-carry.sh (carried with the call). Logs and JSON go to $OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/reducelab-out}
mkdir -p "$out"
build=build-device
export CMAKE_PREFIX_PATH=$root/.carry/root/usr
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build test sanitize ladder)
status=0
note() { printf '\n== %s ==\n' "$*"; }
# sanitized TOOL TIMEOUT_S COMMAND...: runs COMMAND under compute-sanitizer's TOOL (children too: lesson
# 16 runs each kernel in a child process), its log in $out/san.tmp, and prints one table cell: "clean",
# the tool's summary lines ("1 error", "3 hazards displayed (3 errors, 0 warnings)"), or "no result
# in S s". Returns 0 only when the tool found nothing.
sanitized() {
  local tool=$1 limit=$2 rc cell
  shift 2
  timeout -k 10 "$limit" compute-sanitizer --tool "$tool" --target-processes all --error-exitcode 3 "$@" \
    >"$out/san.tmp" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then echo clean; return 0; fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo "no result in $limit s"; return 1; fi
  cell=$(grep -oE "(ERROR|RACECHECK) SUMMARY: .*" "$out/san.tmp" | sed -E 's/^[A-Z]+ SUMMARY: //' | sort -u | paste -sd';' -)
  echo "${cell:-exit code $rc}"
  return 1
}
# PyTorch's times (lessons 19-21's x torch) into $out/torch.json.
torch_baselines() {
  note "torch baselines (torch.sum, L2 flushed, median of 60): torch.json"
  PYTHONUNBUFFERED=1 python3 tests/device/torch_baselines.py --out "$out/torch.json" >"$out/torch.log" 2>&1 \
    || { status=1; tail -5 "$out/torch.log"; }
}

for step in "${steps[@]}"; do
  case $step in
    build)
      note "build"
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
      cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBoost_USE_STATIC_LIBS=ON -DREDUCELAB_VIEWER=OFF -DREDUCELAB_SIM_TESTS=OFF \
        >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
      grep -E "ReduceLab|CUDA" "$out/configure.log"
      # TARGETS="a b": only those (a quicker build when a run measures one lesson).
      targets=(); for t in ${TARGETS:-}; do targets+=(--target "$t"); done
      cmake --build $build -j "$(nproc)" ${targets[@]+"${targets[@]}"} >"$out/build.log" 2>&1 || { grep -E "error|Error" -A3 "$out/build.log" | head -60; exit 1; }
      grep -cE "warning" "$out/build.log" | sed 's/^/build warnings: /'
      ;;
    test)
      note "ctest: host and gpu labels (CI runs the simulator's own suites)"
      ctest --test-dir $build -LE sim -j 4 --output-on-failure --timeout 900 >"$out/ctest.log" 2>&1 || status=1
      tail -15 "$out/ctest.log"
      note "the GPU suite's own summary"
      $build/tests/lesson_gpu_tests 2>&1 | tail -4
      ;;
    sanitize)
      # The table the lesson READMEs cite: $out/sanitizers.md, to be committed as
      # assets/results/<device>-sanitizers.md (h100-sanitizers.md for the H100).
      note "compute-sanitizer: memcheck, racecheck, synccheck on every lesson at N = 2^20+7 (table: sanitizers.md)"
      # SANITIZE="13 16": only those lessons.
      table=$out/sanitizers.md
      { echo "# compute-sanitizer on the $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
        echo
        echo "Written by \`bash tests/device/run.sh sanitize\` on $(date -u +%Y-%m-%d) ($(compute-sanitizer --version | grep -m1 -oE 'Version [0-9.]+' || echo 'compute-sanitizer'),"
        echo "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)): each lesson's executable with \`--check-only\` at"
        echo "N = 2^20+7 (lessons 19 and 20 at one shape of each plan, lesson 21 at a 4-d tensor over four axis sets, lesson"
        echo "16 its fixed kernels: \`--all --fixed\`), under each tool with \`--error-exitcode 3\`. A cell is \`clean\` or the"
        echo "tool's own summary. Lesson 17's broken kernels are in [its README](../../lessons/17_common_bugs/README.md)."
        echo
        echo "| lesson | memcheck | racecheck | synccheck |"
        echo "|---|---|---|---|"; } >"$table"
      for exe in $build/bin/[0-9][0-9]_*; do
        [ "$(basename "$exe")" = 22_multi_gpu_nccl ] && continue  # NCCL's own kernels are not ours to sanitize
        [ "$(basename "$exe")" = 00_measuring ] && continue  # the ceiling and CUB: no kernel of a lesson's own
        nn=$(basename "$exe" | cut -c1-2)
        [ -n "${SANITIZE:-}" ] && [[ " $SANITIZE " != *" $nn "* ]] && continue
        args=(--n 2^20+7 --check-only)
        case $nn in
          # Lessons 19 and 20 take shapes: one of each plan, odd N (scalar loads) among them
          # (1100x4100 and 1100x4101: lesson 19's block a row, packed and scalar).
          18|19) args=(--shape 1000x1001,2^16x8,8x2^16,4x2^18,1100x4100,1100x4101 --check-only) ;;
          # Lesson 21: both kernels, split and unsplit, packed and scalar, and a transposed view.
          20) args=(--shape 6,40,5,36 --axes 0,2 --axes 1,3 --axes 3 --axes 0 --ops sum,argmax,variance
                    --types float32,float16 --check-only) ;;
          # Lesson 17: its fixed kernels, each in its own child process (its broken ones: step bugs).
          16) args=(--all --fixed --backend gpu --n 2^20+7) ;;
        esac
        row="| $(basename "$exe") |"
        for tool in memcheck racecheck synccheck; do
          if cell=$(sanitized $tool 900 "$exe" "${args[@]}"); then
            printf '%-32s %-10s clean\n' "$(basename "$exe")" "$tool"
          else
            printf '%-32s %-10s FAILED: %s\n' "$(basename "$exe")" "$tool" "$cell"; tail -20 "$out/san.tmp"; status=1
          fi
          row="$row $cell |"
        done
        echo "$row" >>"$table"
      done
      note "sanitizers.md"; cat "$table"
      ;;
    ladder)
      for n in 2^20 2^24 2^28; do
        note "ladder at N = $n"
        $build/bin/reducelab ladder --n $n --json "$out/ladder-$(echo $n | tr -d '^').json" || status=1
      done
      ;;
    hopper-api)
      # The simulator's Hopper features, checked on the GPU through rl::launch_ex (after `build`;
      # TARGETS=hopper_gpu_tests is enough; lesson 13 itself is the `hopper` step): clusters with
      # distributed shared memory (2 to 16 blocks, 16 non-portable),
      # programmatic dependent launch, bulk copies of 16 B to 64 KiB, cg::reduce and __reduce_*_sync,
      # against the references the simulator's tests use; then the same under compute-sanitizer;
      # then what cuda::memcpy_async(dst, src, cuda::aligned_size_t<16>(n), bar) is on sm_90: the
      # SASS of the bulk_load kernels, whose bulk-copy (UBLKCP) and mbarrier (SYNCS) instructions are
      # counted (none would mean libcu++ fell back to an ordinary copy). SASS in $out/hopper.sass.
      note "Hopper features on the GPU: hopper_gpu_tests"
      $build/tests/hopper_gpu_tests 2>&1 | tail -4
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
      for tool in memcheck racecheck synccheck; do
        cell=$(sanitized $tool 900 $build/tests/hopper_gpu_tests) || { status=1; tail -20 "$out/san.tmp"; }
        printf 'hopper_gpu_tests %-10s %s\n' "$tool" "$cell"
      done
      note "SASS of bulk_load on sm_90: UBLKCP (cp.async.bulk) and SYNCS (mbarrier) instructions"
      "$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)" -sass $build/tests/hopper_gpu_tests \
        >"$out/hopper.sass" 2>&1 || status=1
      awk '/Function :/ { keep = ($0 ~ /bulk_load/) } keep' "$out/hopper.sass" \
        | grep -oE "(UBLKCP|SYNCS)[.A-Z0-9_]*" | sort | uniq -c
      ;;
    traces)
      note "traces of every lesson on the GPU (n = 64, block 32), packed into traces.tgz"
      bash tests/device/record-traces.sh $build "$out/traces" gpu h100 || status=1
      tar -C "$out" -czf "$out/traces.tgz" traces && rm -rf "$out/traces"
      ;;
    launches)
      # Lesson 15's report: what a launch costs on the stream, with the dependent launch, from a
      # graph and both, for the empty kernel and the single pass at 2^20 (after `build`;
      # TARGETS=15_launch_cost is enough). Commit as assets/results/h100-launch-cost.json.
      note "lesson 15: what a launch costs, four ways, at 2^20 (JSON: launch-cost.json)"
      $build/bin/15_launch_cost --n 2^20 --json "$out/launch-cost.json" || status=1
      ;;
    bench)
      note "bench 2^10 .. 2^28"
      $build/bin/reducelab bench --from 10 --to 28 --at 28 --json "$out/bench.json" || status=1
      ;;
    sweep)
      # Lesson 07's README (Brent's theorem, measured): its kernel at 2, 4, ..., 2^14 inputs a thread,
      # then at its own grid sized to the GPU, at 2^24 and 2^28 (after `build`; TARGETS=reducelab is
      # enough). Commit sweep.json as assets/results/sweep/<device>-sweep.json (h100-sweep.json): a
      # folder of its own, so that the viewer, which opens every file of assets/results, keeps to
      # the ladder's.
      note "lesson 07: 2 .. 2^14 inputs a thread and its own grid, at 2^24 and 2^28 (JSON: sweep.json)"
      $build/bin/reducelab sweep --n 2^24,2^28 --json "$out/sweep.json" || status=1
      ;;
    ops)
      note "lesson 18: operators x types, GPU tests"
      $build/tests/ops_gpu_tests >"$out/ops-tests.log" 2>&1 || status=1
      tail -4 "$out/ops-tests.log"
      note "lesson 18: table at N = 2^28 (JSON: ops-2p28.json)"
      $build/bin/18_operators_and_types --n 2^28 --json "$out/ops-2p28.json" >"$out/ops-bench.log" 2>&1 || status=1
      grep -vE '^\| (op|-)' "$out/ops-bench.log" | grep -v '^|' | tail -5
      grep '^|' "$out/ops-bench.log"
      ;;
    axes)
      # PyTorch's times first: lessons 19/20 (step rows, after this one) and 16 read torch.json.
      torch_baselines
      baseline=(); [ -s "$out/torch.json" ] && baseline=(--baseline "$out/torch.json")
      note "lesson 21: GPU tests"
      $build/tests/axes_gpu_tests >"$out/axes-tests.log" 2>&1 || status=1
      tail -4 "$out/axes-tests.log"
      note "lesson 21: plans of the benchmark tensor"
      $build/bin/21_any_axes --explain 2>&1 | tee "$out/axes-explain.log"
      note "lesson 21: 64x128x64x128 float32 over {0,2} {1,3} {3} {0} (JSON: axes.json)"
      $build/bin/21_any_axes --reps 50 "${baseline[@]}" --json "$out/axes.json" >"$out/axes-bench.log" 2>&1 || status=1
      grep -v '^|' "$out/axes-bench.log" | tail -6
      note "torch.sum times"; cat "$out/torch.log"
      note "lesson 21 table"; grep '^|' "$out/axes-bench.log"
      ;;
    rows)
      # Lessons 19 and 20: the GPU suite, then both tables at the benchmark shapes, with x torch where
      # tests/device/torch_baselines.py (lesson 21's step) has written $out/torch.json. Tables last.
      note "lessons 19, 20: matrix_gpu_tests"
      $build/tests/matrix_gpu_tests >"$out/matrix-tests.log" 2>&1 || status=1
      tail -4 "$out/matrix-tests.log"
      baseline=()
      [ -f "$out/torch.json" ] && baseline=(--baseline "$out/torch.json")
      [ -f "$out/torch.json" ] || echo "no $out/torch.json: tables without x torch"
      for exe in 19_row_reduce 20_column_reduce; do
        $build/bin/$exe ${baseline[@]+"${baseline[@]}"} --json "$out/$exe.json" >"$out/$exe.log" 2>&1 || status=1
      done
      for exe in 19_row_reduce 20_column_reduce; do
        note "$exe (JSON: $exe.json)"
        cat "$out/$exe.log"
      done
      ;;
    torch)
      torch_baselines
      grep "median" "$out/torch.log"
      ;;
    beyond)
      # Lessons 18-21 through the runner, x torch where the torch step ran first: one JSON.
      note "reducelab beyond: lessons 18-21 (JSON: beyond.json)"
      baseline=(); [ -s "$out/torch.json" ] && baseline=(--baseline "$out/torch.json")
      $build/bin/reducelab beyond ${baseline[@]+"${baseline[@]}"} --json "$out/beyond.json" >"$out/beyond.log" 2>&1 || status=1
      grep -E '^(==|\||wrote|beyond)' "$out/beyond.log"
      ;;
    grade)
      # The classroom grader on the GPU: every exercise fails untouched and passes with its solution,
      # graded on the GPU this time (the broken-submission diagnoses are the simulator's, as in CI).
      note "lessons/grade.sh --self-check on the GPU"
      REDUCELAB_SKIP_DEPS=1 REDUCELAB_CMAKE_ARGS="-DBoost_USE_STATIC_LIBS=ON" \
        bash lessons/grade.sh --self-check --build build-grade --case-timeout 60 >"$out/grade.log" 2>&1 || status=1
      grep -E "^(==|[0-9][0-9]_|score|self-check|reported|error)" "$out/grade.log"
      ;;
    hostile)
      # Issue 26 on the GPU: tests/grading/submissions/hostile graded with --class, each submission
      # built and run in the sandbox with the GPU's device files added, beside the solution (which
      # must pass on the GPU) and the untouched exercise; each classed, nothing outside their
      # folders changed (lessons/GRADING.md). bwrap comes in .carry (tests/device/pack-carry.sh).
      note "hostile submissions, sandboxed, on the GPU"
      PATH=$root/.carry/root/usr/bin:$PATH REDUCELAB_SKIP_DEPS=1 REDUCELAB_CMAKE_ARGS="-DBoost_USE_STATIC_LIBS=ON" \
        bash tests/grading/expect_hostile_class.sh "$root/build-hostile" "$out/hostile" >"$out/hostile.log" 2>&1 \
        || status=1
      grep -E "^(== |[0-9][0-9]_|FAIL|hostile submissions|graded in)|^[a-z_0-9]+: " "$out/hostile.log"
      cp "$out/hostile/class-results.csv" "$out/hostile-results.csv" 2>/dev/null || true
      ;;
    trusted)
      # Every lesson whose verdict the trusted side decides from handed-back outputs or figures, on
      # the GPU and through the sandbox: the solutions pass and the untouched exercises fail
      # (lesson 22 on the GPUs there are). TRUSTED_LESSONS and WHO (sol, ex) narrow it.
      note "trusted verdicts on the GPU: lessons ${TRUSTED_LESSONS:-11 16 17 18 19 20 21}, solutions and untouched exercises"
      PATH=$root/.carry/root/usr/bin:$PATH REDUCELAB_SKIP_DEPS=1 REDUCELAB_CMAKE_ARGS="-DBoost_USE_STATIC_LIBS=ON" \
        bash tests/grading/expect_trusted_verdicts.sh "$root/build-hostile" "$out/trusted" ${TRUSTED_LESSONS:-11 16 17 18 19 20 21} \
        >"$out/trusted.log" 2>&1 || status=1
      grep -E "^(== |[0-9][0-9]_|FAIL|every solution)" "$out/trusted.log"
      ;;
    nccl)
      # Lesson 22 (after `build`; TARGETS="22_multi_gpu_nccl nccl_gpu_tests 12_single_pass" is
      # enough): how the GPUs are linked, its GPU tests (skipped below two GPUs; the exact-spike
      # ones, the dropped block among them, on 2, 3, ... every GPU), one process per GPU, then the
      # scaling at 2^30 floats per GPU (1, 2, 4, 8 GPUs as present) with lesson 12 alone at 2^30
      # beside it. Commit nccl-scaling.json as assets/results/<device>x<GPUs>-nccl-scaling.json
      # (h100x4-nccl-scaling.json): one machine a file.
      note "the GPUs and their links (nvidia-smi topo -m: nccl-topo.txt)"
      nvidia-smi topo -m 2>&1 | tee "$out/nccl-topo.txt"
      note "lesson 22: nccl_gpu_tests (the tests' own lines: nccl-tests.log)"
      $build/tests/nccl_gpu_tests --success --reporter compact >"$out/nccl-tests.log" 2>&1; rc=$?
      grep -E "warning:|failed|^(Passed|Failed|skipped)" "$out/nccl-tests.log" | tail -30
      [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
      note "lesson 22: one process per GPU"
      $build/bin/22_multi_gpu_nccl --processes --n-per-gpu 2^26 --reps 10 2>&1 | tee "$out/nccl-processes.log" || status=1
      note "lesson 12 alone at 2^30 (the one-GPU throughput the target compares with)"
      $build/bin/12_single_pass --n 2^30 --json "$out/lesson12-2p30.json" 2>&1 | tee "$out/lesson12-2p30.log" || status=1
      note "lesson 22 scaling at 2^30 floats per GPU"
      $build/bin/22_multi_gpu_nccl --scaling --n-per-gpu 2^30 --reps 30 --json "$out/nccl-scaling.json" \
        2>&1 | tee "$out/nccl-scaling.log" || status=1
      ;;
    bugs)
      # Lesson 17 on the GPU: every bug on the graded cases (each in a child process, stopped after
      # 10 s without progress), under compute-sanitizer at one case, and what the simulator and the
      # grader make of it: the table of lesson 17's README, $out/bugs.md. Then the races counted:
      # REPEAT runs (default 20000) of each at 2^20 integers, every block's sum exact (lesson 05's README).
      # Commit bugs.md and bugs-counted.txt as assets/results/<device>-bugs.md and -bugs-counted.txt:
      # the READMEs' results spans take them (tests/docs/results_blocks.py). Sanitizer logs: bugs-logs.tgz.
      note "lesson 17: every bug on the GPU, under compute-sanitizer, and on the simulator (table: bugs.md)"
      exe=$build/bin/17_common_bugs
      gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
      short=$(grep -oE 'H100|H200|B200|A100|L40S' <<<"$gpu" | head -1)
      names=$("$exe" --list | awk -F'|' '/^\| [a-z_]+ +\| lesson/ { gsub(/ /, "", $2); print $2 }')
      # One cell from a line of 17_common_bugs: after "NAME: ", without the simulator's kernel/block/thread
      # prefix, and with no | to break the table.
      cell() { grep -m1 "^$1[ :(]" | sed -E -e "s/^$1( \(fixed\))?: //" \
                 -e "s/sim: kernel '[a-z_]+' block \([0-9,]+\) thread \([0-9,]+\): //" -e 's/\|/\\|/g'; }
      table=$out/bugs.md
      { echo "<!-- from tests/device/run.sh bugs: $gpu, $(date -u +%Y-%m-%d), CUDA $( (nvcc --version || /usr/local/cuda/bin/nvcc --version) 2>/dev/null | grep -oE 'release [0-9.]+' | head -1),"
        echo "     driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1), Release build (-O3) -->"
        echo "| bug | ${short:-GPU} result | racecheck | simulator | grader |"
        echo "|---|---|---|---|---|"; } >"$table"
      for name in $names; do
        on_gpu=$("$exe" --bug "$name" --backend gpu --case-timeout 10 2>&1 | tee -a "$out/bugs.log" | cell "$name")
        sanitizers=""
        for tool in racecheck synccheck memcheck; do
          result=$(sanitized $tool 300 "$exe" --bug "$name" --backend gpu --n 2^16+1 --case-timeout 30)
          mkdir -p "$out/bugs-logs" && cp "$out/san.tmp" "$out/bugs-logs/$name-$tool.log"
          sanitizers="$sanitizers${sanitizers:+; }$tool: $result"
        done
        on_sim=$("$exe" --bug "$name" --backend sim --no-sim-racecheck --case-timeout 10 2>&1 | tee -a "$out/bugs.log" | cell "$name")
        graded=$("$exe" --bug "$name" --backend sim --case-timeout 10 2>&1 | tee -a "$out/bugs.log" | cell "$name")
        echo "| $name | $on_gpu | $sanitizers | $on_sim | $graded |" | tee -a "$table"
      done
      note "the races counted on the GPU (lesson 05's README)"
      for name in missing_barrier_in_loop barrier_only_above_warp volatile_tail missing_syncwarp missing_fence; do
        "$exe" --bug "$name" --backend gpu --n 2^20 --dist integers --repeat "${REPEAT:-20000}" --case-timeout 60 2>&1 \
          | tee -a "$out/bugs.log" | grep "^$name" | tee -a "$out/bugs-counted.txt"
      done
      note "every fix on the GPU"
      "$exe" --all --fixed --backend gpu --case-timeout 60 2>&1 | tee -a "$out/bugs.log" || status=1
      tar -C "$out" -czf "$out/bugs-logs.tgz" bugs-logs && rm -rf "$out/bugs-logs" "$out/san.tmp"
      note "bugs.md"; cat "$table"
      ;;
    hopper)
      # Lessons 13, 14 and 15 (Hopper's means on lesson 12's single pass, and its launch recorded into
      # a graph): their GPU tests; the whole
      # ladder (so lesson 12, every variant of 13 and 14, the ceiling and CUB in one run) at the sizes
      # of their targets, JSON hopper-ladder-2pK.json; lesson 13 alone at other block sizes; the
      # registers and shared memory of every kernel (cuobjdump -res-usage of the build's own object)
      # and the SASS opcodes of 13's and 14's kernels (the bulk copy's cp.async.bulk);
      # compute-sanitizer at 2^20+7.
      # Commit the JSON as assets/results/h100-hopper-2pK.json for the README's tables.
      note "lessons 13, 14 and 15: GPU tests (lesson_gpu_tests [hopper])"
      $build/tests/lesson_gpu_tests "[hopper]" >"$out/hopper-tests.log" 2>&1 || status=1
      tail -4 "$out/hopper-tests.log"
      for k in 10 16 20 22 24 28 31; do
        note "ladder at N = 2^$k (lessons 13 and 14, the cluster sweep 2..16 among them; JSON: hopper-ladder-2p$k.json)"
        $build/bin/reducelab ladder --n 2^$k --json "$out/hopper-ladder-2p$k.json" >"$out/hopper-ladder-2p$k.log" 2>&1 || status=1
        grep -E "^\\| (lesson|12|13|14|15|-) " "$out/hopper-ladder-2p$k.log"
      done
      for k in 20 28; do
        for b in 256 512; do
          note "lesson 13 at N = 2^$k, --block $b (JSON: hopper-13-2p$k-b$b.json)"
          $build/bin/13_dependent_launch --n 2^$k --block $b --json "$out/hopper-13-2p$k-b$b.json" 2>&1 \
            | grep -E "^  |time|GB/s|bitwise|different" || status=1
        done
      done
      note "registers and shared memory per kernel (cuobjdump -res-usage; hopper-registers.txt)"
      for lesson in 12 13 14 15; do
        obj=$(find $build -path "*lesson${lesson}_gpu.dir*" -name 'plan.cu.o' | head -1)
        cuobjdump -res-usage "$obj" 2>&1 | awk '/Function/ { name = $2; sub(/:$/, "", name); next }
          /REG:/ { print name "\t" $0 }' | c++filt | sed -E 's/rl::backend_gpu:://g' | grep -v RecordTrace \
          | tee -a "$out/hopper-registers.txt"
      done
      note "SASS opcodes of lessons 13 and 14's kernels (hopper-sass.txt: the bulk copy's UBLKCP, the mbarrier's SYNCS, ...)"
      for lesson in 13 14 15; do
        obj=$(find $build -path "*lesson${lesson}_gpu.dir*" -name 'plan.cu.o' | head -1)
        cuobjdump -sass "$obj" 2>&1 || status=1
      done >"$out/hopper-sass-full.txt"
      awk '/Function :/ { if (name) print name ":" ops; name = $3; ops = ""; delete seen; next }
           match($0, /\/\*[0-9a-f]+\*\/ +(@!?U?P[0-9T]+ +)?[A-Z][A-Z0-9_.]*/) {
             t = substr($0, RSTART, RLENGTH); sub(/.*\*\/ +(@!?U?P[0-9T]+ +)?/, "", t)
             if (!(t in seen)) { seen[t] = 1; ops = ops " " t } }
           END { if (name) print name ":" ops }' "$out/hopper-sass-full.txt" | c++filt \
        | sed -E 's/rl::backend_gpu:://g' | grep -v RecordTrace | tee "$out/hopper-sass.txt"
      gzip -f "$out/hopper-sass-full.txt"
      note "compute-sanitizer on lessons 13, 14 and 15 at N = 2^20+7"
      for exe in 13_dependent_launch 14_clusters_and_bulk_copies 15_launch_cost; do
        for tool in memcheck racecheck synccheck; do
          if cell=$(sanitized $tool 900 $build/bin/$exe --n 2^20+7 --check-only); then
            echo "$exe $tool clean"
          else
            echo "$exe $tool FAILED: $cell"; tail -20 "$out/san.tmp"; status=1
          fi
        done
      done
      ;;
    profile)
      # Nsight Compute on every ladder kernel: one ncu process per plan, size (2^20, 2^24) and block
      # (256, and the plan's own), one record per kernel launch of one call. Commit profile.json as
      # assets/profiles/<device>-profile.json; `reducelab profile --from FILE` prints its table.
      note "reducelab profile: every ladder kernel under ncu at 2^20 and 2^24 (JSON: profile.json)"
      $build/bin/reducelab profile --json "$out/profile.json" >"$out/profile.log" 2>"$out/profile.err" || status=1
      tr '\r' '\n' <"$out/profile.err" | grep -E "^(profile: [0-9]+ calls|profile: FAILED|profile: ncu gave|error)"
      grep -E '^(\||profile|wrote)' "$out/profile.log"
      ;;
    timeline)
      # CUPTI's activity records of 20 timed calls of lessons 07, 10, 12 and 16 at 2^10, 2^20 and
      # 2^24: launch latency, each kernel and copy, the gaps, host code. Commit timeline.json as
      # assets/profiles/<device>-timeline.json.
      note "reducelab timeline: lessons 07, 10, 12, 16 at 2^10, 2^20, 2^24 under CUPTI (JSON: timeline.json)"
      $build/bin/reducelab timeline --json "$out/timeline.json" >"$out/timeline.log" 2>"$out/timeline.err" || status=1
      tr '\r' '\n' <"$out/timeline.err" | grep -E "^(timeline: FAILED|error)"
      grep -E '^(\||timeline|wrote)' "$out/timeline.log"
      ;;
    latency)
      # Lesson 11 on the GPU: at 2^26 and 2^28 its plans, the pointer chase (ns a load from DRAM and
      # from L2), Little's law, the bytes in flight of lessons 07, 08, 12 and 11 against it, and the
      # roofline (latency-2pNN.log, and latency-2pNN.json: the results record with its `latency`
      # object); latency.md, the report part of both logs, for assets/results/<device>-latency.md.
      # Then its exercise's solution graded on the GPU (the 90% target at 2^26 to be confirmed
      # there), the untouched exercise graded too (it must fail: one 4-byte load in flight), and the
      # SASS of the lesson's kernels and of lessons 07, 08, 12 linked into it (latency-sass.txt: are
      # the loads in flight what the sources issue?).
      exe=$build/bin/11_latency_and_roofline
      note "lesson 11: latency, Little's law and the roofline at 2^26 and 2^28 (latency.md)"
      : >"$out/latency.md"
      for n in 2^26 2^28; do
        tag=$(echo $n | tr -d '^' | sed 's/2/2p/')
        "$exe" --n $n --json "$out/latency-$tag.json" >"$out/latency-$tag.log" 2>&1 || status=1
        { echo "## N = $n"; echo; sed -n "/^lesson 11's report/,\$p" "$out/latency-$tag.log"; echo; } >>"$out/latency.md"
      done
      cat "$out/latency.md"
      note "lesson 11: the exercise graded on the GPU, untouched (must fail) and solved (must pass)"
      solved=$(mktemp -d) && cp lessons/11_latency_and_roofline/stream_sum.cuh "$solved/"
      for what in untouched solved; do
        sub=(); [ $what = solved ] && sub=(--submission "$solved")
        REDUCELAB_SKIP_DEPS=1 REDUCELAB_CMAKE_ARGS="-DBoost_USE_STATIC_LIBS=ON" \
          bash lessons/grade.sh ${sub[@]+"${sub[@]}"} --build build-grade --case-timeout 120 --backend gpu 11 \
          >"$out/latency-grade-$what.log" 2>&1
        rc=$?
        grep -E "^(11_|score)|hint:|kernel:" "$out/latency-grade-$what.log"
        if [ $what = untouched ] && [ $rc -eq 0 ]; then echo "the untouched exercise passed: it must fail"; status=1; fi
        if [ $what = solved ] && [ $rc -ne 0 ]; then echo "the solution failed: it must pass"; status=1; fi
      done
      rm -rf "$solved"
      cuobjdump -sass "$exe" >"$out/latency-sass.txt" 2>&1 || echo "cuobjdump failed: no latency-sass.txt"
      ;;
    *)
      "$build/bin/$step" || status=1
      ;;
  esac
done
exit $status

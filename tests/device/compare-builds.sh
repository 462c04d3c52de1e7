#!/usr/bin/env bash
# Run ON THE GPU MACHINE: the ladder of another tree (BEFORE, e.g. the commit before a refactor,
# carried as a folder) against this tree's, in one session, alternating A B A B at each size so that
# drift of the card shows as spread rather than as a difference. Builds only the runner of BEFORE;
# expects this tree's runner in build-device (tests/device/run.sh build). Writes ladder JSON and a
# comparison table (compare-ladders.py) under $OUT.
#   bash tests/device/compare-builds.sh .carry/before "2^20 2^24 2^28" 2
# LESSON=NN_slug: that lesson's executable alone instead of the whole ladder (quicker to build and to
# run when a change touches one lesson), e.g. lesson 12's acquire fence against the commit before:
#   git archive <commit> | tar -x -C .carry/before          (here, before the device call)
#   LESSON=12_single_pass bash tests/device/compare-builds.sh .carry/before "2^20 2^24 2^28" 5
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
before=$1 sizes=${2:-"2^20 2^24 2^28"} rounds=${3:-2}
out=${OUT:-/tmp/reducelab-out}
mkdir -p "$out"
export CMAKE_PREFIX_PATH=$root/.carry/root/usr
cmake -S "$before" -B "$before/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBoost_USE_STATIC_LIBS=ON \
  -DREDUCELAB_VIEWER=OFF -DREDUCELAB_TESTS=OFF >"$out/before-configure.log" 2>&1 || { tail -20 "$out/before-configure.log"; exit 1; }
target=${LESSON:-reducelab}
cmake --build "$before/build" -j "$(nproc)" --target "$target" >"$out/before-build.log" 2>&1 \
  || { grep -E "error" -A3 "$out/before-build.log" | head -40; exit 1; }
run() {  # run BUILD_DIR N JSON: the ladder, or the one lesson, at N
  if [ -n "${LESSON:-}" ]; then "$1/bin/$LESSON" --n "$2" --json "$3" >/dev/null
  else "$1/bin/reducelab" ladder --n "$2" --json "$3" >/dev/null; fi
}
for n in $sizes; do
  tag=$(echo "$n" | tr -d '^')
  for r in $(seq 1 "$rounds"); do
    run "$before/build" "$n" "$out/before-$tag-$r.json" || exit 1
    run build-device "$n" "$out/after-$tag-$r.json" || exit 1
  done
done
python3 tests/device/compare-ladders.py "$out" | tee "$out/compare.md"

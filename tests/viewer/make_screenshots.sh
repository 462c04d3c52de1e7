#!/usr/bin/env bash
# Re-makes the README's pictures (assets/screenshots) with the viewer's own --screenshot under Xvfb.
#   bash tests/viewer/make_screenshots.sh [BUILD_DIR]   (default: build; needs xvfb-run)
# The 100,000-element picture records its trace first with the build's lesson 03 (simulator).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$root/build}")
viewer=$build/bin/reducelab_viewer
out=$root/assets/screenshots
traces=$root/assets/traces
cd "$root"
shot() {  # shot NAME WxH ARGS...: a screenshot that must load every file (exit 0)
  local name=$1 size=$2
  shift 2
  xvfb-run -a -s "-screen 0 ${size}x24" "$viewer" --size "$size" --screenshot "$out/$name" "$@"
  echo "$out/$name"
}
shot throughput.png 1280x800 --view throughput
shot bars.png 1280x800 --view bars
shot bars-1600.png 1600x900 --view bars
shot scaling.png 1280x800 --view scaling
shot tables.png 1280x800 --view tables
shot tree-default.png 1280x800 --view tree
shot tree-03.png 1280x800 --trace "$traces/03_sequential_addressing.sim.json" --step 6
shot tree-02-vs-03.png 1280x800 --trace "$traces/02_interleaved_strided.b256.sim.json" \
  --trace "$traces/03_sequential_addressing.b256.sim.json" --step 4
shot tree-08-shuffles.png 1280x800 --trace "$traces/08_warp_shuffle.sim.json" --step 9
shot tree-block1024.png 1280x800 --trace "$traces/10_multi_block_two_kernel.sim.json" --step 14
shot compare-missing-barrier.png 1280x800 --trace "$traces/broken/03_missing_barrier.sim.json" \
  --trace "$traces/03_sequential_addressing.sim.json" --step 3
shot compare-barrier-only-above-warp.png 1280x800 --trace "$traces/broken/03_barrier_only_above_warp.b256.sim.json" \
  --trace "$traces/03_sequential_addressing.b256.sim.json" --step 5
shot compare-not-same-input.png 1280x800 --trace "$traces/03_sequential_addressing.sim.json" \
  --trace "$traces/03_sequential_addressing.b256.sim.json" --step 2
# The H100's hardware counters beside a trace and under a throughput point, once reducelab profile
# has written them.
profile=$root/assets/profiles/h100-profile.json
if [[ -f "$profile" ]]; then
  shot counters-tree-02.png 1280x800 --trace "$traces/02_interleaved_strided.b256.sim.json" \
    --profile "$profile" --step 4
  shot counters-throughput.png 1280x800 --view throughput --point 02
fi
# A file that does not load: the picture shows the error strip, and the viewer exits 1.
if xvfb-run -a "$viewer" --screenshot "$out/error-strip.png" --trace "$traces/03_sequential_addressing.sim.json" \
  --trace no-such-trace.json 2>/dev/null; then
  echo "error: the viewer exited 0 with a missing file" >&2
  exit 1
fi
echo "$out/error-strip.png"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bin/03_sequential_addressing" --backend sim --n 100000 --trace "$tmp/big.json" --check-only >/dev/null
shot big-trace.png 1280x800 --trace "$tmp/big.json" --step 2

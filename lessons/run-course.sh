#!/usr/bin/env bash
# The main job: set up, build, and run the whole course, on the GPU when there is one and on the CPU
# simulator otherwise: the sum ladder (lessons 01-16, one table), then the lessons beyond the sum
# (17-20, `reducelab beyond`) at their own default sizes, and lesson 22's scaling where two or more
# GPUs are visible.
# Extra arguments go to `reducelab ladder` (e.g. --n 2^28 --block 512).
set -euo pipefail
cd "$(dirname "$0")/.."
bash common/scripts/ensure-deps.sh
bash common/scripts/configure.sh
build/bin/reducelab ladder "$@"
build/bin/reducelab beyond
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ -x build/bin/22_multi_gpu_nccl ] && [ "${gpus:-0}" -ge 2 ]; then
  echo; echo "== lesson 22 on $gpus GPUs =="; build/bin/reducelab scaling
else
  echo; echo "== lesson 22 needs two or more GPUs and NCCL: skipped (${gpus:-0} visible) =="
fi

#!/usr/bin/env bash
# Records the traces the viewer opens by default (assets/traces): every traced lesson at n = 64 with
# 32-thread blocks, and lessons 01-03 again at n = 512 with 256-thread blocks, where divergence and
# bank conflicts show. Usage: record-traces.sh BUILD_DIR OUT_DIR BACKEND SUFFIX
#   on the GPU machine (tests/device/run.sh traces): ... gpu h100; here: ... sim sim
set -euo pipefail
build=$1 out=$2 backend=$3 suffix=$4
mkdir -p "$out"
for exe in "$build"/bin/[0-9][0-9]_*; do
  name=$(basename "$exe")
  # No trace of their own: measuring (00), library code (16), bugs (17), typed tables (18-21), NCCL (22)
  case $name in 00_* | 1[6-9]_* | 2[0-9]_*) continue ;; esac
  "$exe" --backend "$backend" --trace "$out/$name.$suffix.json" --check-only >/dev/null
done
for exe in "$build"/bin/0[123]_*; do
  "$exe" --backend "$backend" --trace "$out/$(basename "$exe").b256.$suffix.json" --n 512 --block 256 --check-only >/dev/null
done
ls "$out"

#!/usr/bin/env bash
# The main job: set up, build, and run the whole ladder, on the GPU when there is one and on the CPU
# simulator otherwise. Extra arguments go to `reducelab ladder` (e.g. --n 2^28 --block 512).
set -euo pipefail
cd "$(dirname "$0")/.."
bash common/scripts/ensure-deps.sh
bash common/scripts/configure.sh
exec build/bin/reducelab ladder "$@"

#!/usr/bin/env bash
# Set up, build, and run every test. GPU tests run where a GPU is visible and are reported as
# skipped (not passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash common/scripts/ensure-deps.sh
bash common/scripts/configure.sh
ctest --preset default -j "$(nproc)"

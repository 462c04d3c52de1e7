#!/usr/bin/env bash
# Set up, build, and run every test. GPU tests run where a GPU is visible and are reported as
# skipped (not passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash common/scripts/ensure-deps.sh
bash common/scripts/configure.sh
# The web page (viewer/README.md): its test opens it in headless Chromium; where emscripten cannot be
# installed the page is not built and that test is skipped with the reason.
bash viewer/web/build-page.sh --ci
ctest --preset default -j "$(nproc)"

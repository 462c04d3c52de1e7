#!/usr/bin/env bash
# Configures and builds ReduceLab with the default preset. nvcc is used where it is installed, even
# when /usr/local/cuda/bin is not on PATH; without it the simulator-only build is made.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cmake --preset default >/dev/null
cmake --build --preset default

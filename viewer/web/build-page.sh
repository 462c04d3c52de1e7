#!/usr/bin/env bash
# Builds the web page into build-web/page/ (viewer/README.md, "In a web page"): installs emscripten
# and chromium from Debian where they are missing, fetches Dear ImGui's Debian source package, and
# builds the one target reducelab_web with the preset "web". Serve the folder with:
#   python3 -m http.server 8000 --bind 127.0.0.1 --directory build-web/page
# --ci: where emscripten cannot be installed, say why in build-web/page-skipped.txt and exit 0 (the
# page's test then reports itself skipped with that reason) instead of failing.
set -euo pipefail
cd "$(dirname "$0")/../.."
ci=0
[ "${1:-}" = "--ci" ] && ci=1
mkdir -p build-web
rm -f build-web/page-skipped.txt
if ! out=$(bash viewer/web/ensure-web-deps.sh 2>&1); then
  echo "$out" >&2
  if [ $ci -eq 1 ]; then
    echo "emscripten, chromium or Dear ImGui's source package could not be installed: $(echo "$out" | tail -1)" \
      > build-web/page-skipped.txt
    echo "reducelab web: page not built: $(cat build-web/page-skipped.txt)" >&2
    exit 0
  fi
  exit 1
fi
# emcc's JS optimizer needs Debian's acorn where the machine's node is not Debian's own.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset web "${launcher[@]}" >/dev/null
cmake --build --preset web
du -sh build-web/page | sed 's/^/reducelab web: page folder /' >&2

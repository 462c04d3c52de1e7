#!/usr/bin/env bash
# Installs what the web build needs, from Debian only, and fetches Dear ImGui's sources:
#   emscripten (3.1.6: em++, its libc++, GLFW for the web) and chromium (the page's test);
#   Dear ImGui 1.86, the version of libimgui-dev, as Debian's source package (`apt-get source`),
#   unpacked into DEST (default build-web/imgui), outside the tracked tree.
# Adds a deb-src entry for bookworm main when apt has none. Usage: ensure-web-deps.sh [DEST]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-$root/build-web/imgui}
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

missing=()
for p in emscripten chromium xz-utils; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "reducelab web: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -f "$dest/imgui.cpp" ]; then
  exit 0
fi
# Debian's source lists are off by default: one deb-src line for the suite the machine runs.
if ! grep -rqs "^Types:.*deb-src\|^deb-src " /etc/apt/sources.list /etc/apt/sources.list.d/; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  echo "reducelab web: adding a deb-src entry for $codename main (Dear ImGui's source package)" >&2
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$codename" /usr/share/keyrings/debian-archive-keyring.gpg | $sudo tee /etc/apt/sources.list.d/reducelab-src.sources >/dev/null
  $sudo apt-get update -qq
fi
version=$(dpkg-query -W -f='${Version}' libimgui-dev 2>/dev/null || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source --download-only -qq "imgui${version:+=$version}" >/dev/null 2>&1 \
  || apt-get source --download-only -qq imgui >/dev/null)
orig=$(ls "$work"/imgui_*.orig.tar.* | head -1)
mkdir -p "$dest"
tar -xf "$orig" -C "$dest" --strip-components=1
[ -f "$dest/imgui.cpp" ] || { echo "reducelab web: $orig has no imgui.cpp" >&2; exit 1; }
echo "reducelab web: Dear ImGui $(basename "$orig") in $dest" >&2

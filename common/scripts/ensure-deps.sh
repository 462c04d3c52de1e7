#!/usr/bin/env bash
# Installs, with apt, whichever of ReduceLab's Debian packages are missing; does nothing when all
# are there, so the README's commands can call it every time. Source it or run it.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libboost-context-dev catch2 libcli11-dev nlohmann-json3-dev)
# clang-format: the test "sources are clang-formatted" checks every C++/CUDA file with it.
packages+=(clang-format)
# lessons/grade.sh builds and runs every submission of --class and --submission in a bubblewrap
# sandbox (lessons/GRADING.md).
packages+=(bubblewrap)
# The viewer: Dear ImGui (its GLFW and OpenGL3 backends are inside libimgui.a), GLFW, stb for PNGs,
# and Xvfb with Mesa's software renderer so its screenshot tests run without a display.
packages+=(libimgui-dev libglfw3-dev libstb-dev xvfb xauth libgl1-mesa-dri)
packages+=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "reducelab: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Run HERE (the Debian machine), before a device run: packs the header-only packages the GPU machine
# lacks, and the few Boost.Context files the simulator needs, into .carry/ (git-ignored), which the
# device tool carries. Debian's own .debs are unpacked with dpkg -x; nothing is copied by hand
# except the Boost header subset that the simulator's sources actually include (found with g++ -M).
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
rm -rf .carry && mkdir -p .carry/debs .carry/root .carry/boost-full
(cd .carry/debs && apt-get download catch2 libcli11-dev nlohmann-json3-dev libboost-context1.74-dev \
   libboost-context1.74.0 libboost1.74-dev bubblewrap >/dev/null)
# lessons/grade.sh's sandbox (the `hostile` step): Debian's bwrap, run from .carry/root/usr/bin.
dpkg -x .carry/debs/bubblewrap_*.deb .carry/root
for deb in .carry/debs/catch2_*.deb .carry/debs/libcli11-dev_*.deb .carry/debs/nlohmann-json3-dev_*.deb \
           .carry/debs/libboost-context1.74-dev_*.deb; do
  dpkg -x "$deb" .carry/root
done
dpkg -x .carry/debs/libboost1.74-dev_*.deb .carry/boost-full
# The cmake package configs of Boost (BoostConfig and boost_headers) come with libboost1.74-dev.
cp -r .carry/boost-full/usr/lib/x86_64-linux-gnu/cmake/* .carry/root/usr/lib/x86_64-linux-gnu/cmake/
# Only the Boost headers the simulator includes, transitively.
for src in common/sim/*.cpp; do
  g++ -std=c++20 -M -I. -I.carry/boost-full/usr/include "$src"
done | tr ' \\' '\n\n' | grep '/boost-full/usr/include/boost/' | sort -u | while read -r h; do
  rel=${h#*/boost-full/usr/include/}
  mkdir -p ".carry/root/usr/include/$(dirname "$rel")"
  cp "$h" ".carry/root/usr/include/$rel"
done
# Static Boost.Context only: the shared one would need its runtime package on the GPU machine too.
rm -f .carry/root/usr/lib/x86_64-linux-gnu/libboost_context.so
rm -rf .carry/debs .carry/boost-full
du -sh .carry

#!/usr/bin/env bash
# Where the sandbox cannot start, --class and --submission refuse in one line, before any work
# (lessons/GRADING.md):
#   expect_sandbox_refusal.sh WORK
# puts first on PATH a bwrap that fails as it does where user namespaces are off, and checks that
# grade.sh --class and --submission exit 2 with one line that says why and names --unsafe, and
# build nothing.
set -euo pipefail
work=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/bin" "$work/class/alice"
cat >"$work/bin/bwrap" <<'FAKE'
#!/bin/sh
echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2
exit 1
FAKE
chmod +x "$work/bin/bwrap"
for mode in --class --submission; do
  dir=$work/class
  [ $mode = --class ] || dir=$work/class/alice
  rc=0
  PATH=$work/bin:$PATH REDUCELAB_SKIP_DEPS=1 bash "$root/lessons/grade.sh" $mode "$dir" 03 --build "$work/build" \
    >"$work/out" 2>"$work/err" || rc=$?
  [ $rc -eq 2 ] || fail "$mode: exit code $rc, not 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "$mode: not one line: $(cat "$work/err")"
  grep -q "^error: cannot grade submissions safely: bubblewrap cannot start a sandbox here (bwrap: No permissions" "$work/err" \
    || fail "$mode: the line does not say why: $(cat "$work/err")"
  grep -qF -- "--unsafe" "$work/err" || fail "$mode: the line does not name --unsafe"
  [ ! -e "$work/build" ] || fail "$mode: it built before refusing"
  [ ! -s "$work/out" ] || fail "$mode: it printed: $(cat "$work/out")"
done
echo "no sandbox, no grading: --class and --submission refuse in one line"

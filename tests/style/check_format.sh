#!/usr/bin/env bash
# Every tracked C++/CUDA file is as clang-format (.clang-format at the top) leaves it. Prints the
# files that are not, with clang-format's first complaint for each, and exits 1; exits 77 (skipped)
# where clang-format or git is missing.  bash tests/style/check_format.sh REPO_ROOT
set -uo pipefail
cd "$1" || exit 2
command -v clang-format >/dev/null && command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 \
  || { echo "clang-format or a git checkout missing: not checked"; exit 77; }
bad=0
while IFS= read -r f; do
  if ! out=$(clang-format --dry-run --Werror "$f" 2>&1); then
    echo "$f: not clang-formatted (run: clang-format -i $f)"
    echo "$out" | head -3
    bad=1
  fi
done < <(git ls-files '*.h' '*.cuh' '*.cu' '*.cpp')
[ $bad -eq 0 ] && echo "every C++/CUDA file is clang-formatted"
exit $bad

#!/usr/bin/env bash
# Lesson 17 runs its bugs from a catalogue (broken.cuh) and hands the same kernels to the student as an
# exercise (exercise/common_bugs.cuh, in namespace graded instead of broken). Their code must be the
# same, so that what `17_common_bugs --bug NAME` shows is what the student fixes: compared line by line
# without comments, blank lines and the namespace's name.
# Usage: bugs_match_exercise.sh CATALOGUE EXERCISE
set -u
catalogue=${1:?usage: bugs_match_exercise.sh CATALOGUE EXERCISE} exercise=${2:?usage: bugs_match_exercise.sh CATALOGUE EXERCISE}
code() {
  sed -E -e 's|[[:space:]]*//.*$||' -e 's/namespace (broken|graded)\b/namespace NS/' -e '/^[[:space:]]*$/d' "$1"
}
if ! report=$(diff <(code "$catalogue") <(code "$exercise")); then
  echo "$exercise differs from $catalogue in its code (catalogue lines <, exercise lines >):"
  echo "$report"
  exit 1
fi
echo "$exercise: the same kernels as $catalogue"

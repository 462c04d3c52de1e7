#!/usr/bin/env bash
# Each exercise is its lesson's solution file with a few regions handed to the student: it may differ
# from the solution only in hunks that carry a "TODO(student)" line, and in an opening comment. A
# change to a solution that is not carried into its exercise (a faster load, a renamed kernel) fails
# here, instead of leaving students a file that has quietly drifted from the lesson it teaches.
# Where the student must find the mistake (lesson 17), a line "TODO(student) section:" hands out the
# whole section it heads, up to the next TODO(student) line: a hunk inside it passes without a TODO
# line of its own, which would point at the mistake.
# Usage: exercise_matches_solution.sh LESSONS_DIR
set -u
lessons=${1:?usage: exercise_matches_solution.sh LESSONS_DIR}
checked=0 failed=0
for exercise in "$lessons"/[0-9][0-9]_*/exercise/*; do
  case $exercise in *.md | */answers_*.txt) continue ;; esac
  solution=$(dirname "$(dirname "$exercise")")/$(basename "$exercise")
  if [ ! -f "$solution" ]; then
    echo "$exercise: no solution file beside the exercise ($solution)"; failed=$((failed + 1)); continue
  fi
  checked=$((checked + 1))
  # diff's normal format: a hunk is a line such as "12,14c12,16", then "<" (solution) and ">"
  # (exercise) lines. A hunk passes if its exercise side has a TODO(student), or if it only adds
  # comment lines at the very top (0aN: the exercise's header).
  # The sections handed out whole, as "first-last" exercise line ranges.
  sections=$(awk '/TODO\(student\)/ { if (start) printf "%d-%d ", start, NR - 1; start = 0 }
                  /TODO\(student\) section:/ { start = NR }
                  END { if (start) printf "%d-%d ", start, NR }' "$exercise")
  report=$(diff "$solution" "$exercise" | awk -v file="$exercise" -v sections="$sections" '
    function in_section(hunk,   side, range, k, n, r, lim) {
      side = hunk; sub(/^[0-9,]*[acd]/, "", side)  # the exercise side: "N" or "N,M"
      n = split(side, range, ","); if (n == 1) range[2] = range[1]
      k = split(sections, r, " ")
      for (; k > 0; k--) { split(r[k], lim, "-"); if (range[1] >= lim[1] && range[2] <= lim[2]) return 1 }
      return 0
    }
    function close_hunk() {
      if (hunk != "" && !todo && !(hunk ~ /^0a/ && only_comments) && !in_section(hunk))
        printf "%s: diff hunk %s (solution lines, then exercise lines) is outside any TODO(student)\n", file, hunk
    }
    /^[0-9]/ { close_hunk(); hunk = $0; todo = 0; only_comments = 1; next }
    /^>/ { if ($0 ~ /TODO\(student\)/) todo = 1; if ($0 !~ /^> *\/\//) only_comments = 0 }
    END { close_hunk() }')
  if [ -n "$report" ]; then echo "$report"; failed=$((failed + 1)); fi
done
[ "$checked" -gt 0 ] || { echo "no exercises found under $lessons"; exit 1; }
echo "$checked exercises checked, $failed drifted from their solutions"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Runs reducelab_viewer under Xvfb and checks its exit code and what it wrote. Exit 77 (skipped)
# when xvfb-run is missing. Environment: VIEWER, PNG_CHECK, XVFB_RUN, OUT, MODE, INPUT, INPUT2, VIEW,
# SIZE, STEP.
set -uo pipefail
mkdir -p "$OUT"
size=${SIZE:-1280x800}
w=${size%x*}
h=${size#*x}
xvfb() {
  if [[ -z "${XVFB_RUN:-}" || "$XVFB_RUN" == *NOTFOUND* || ! -x "$XVFB_RUN" ]]; then
    echo "xvfb-run not found: skipped"
    exit 77
  fi
  "$XVFB_RUN" -a -s "-screen 0 ${w}x${h}x24" "$@"
}
flag_for() {
  if grep -q '"reducelab.trace"' "$1"; then echo --trace
  elif grep -q '"reducelab.profile"' "$1"; then echo --profile
  else echo --results; fi
}
# A trace still in format version 1 (the H100's until they are recorded again) is refused: exit 1.
refused() { grep -q '"reducelab.trace"' "$1" && tail -c 200 "$1" | grep -Eq '"version": ?1[,}]'; }
# The colour of a stale read's flag and edges (viewer/colors.h kStale), and the first difference's.
stale_rgb="255 70 60"
differs_rgb="255 80 255"
expect_rc() {  # expect_rc WANT GOT WHAT
  [[ $2 -eq $1 ]] || { echo "FAIL: $3 exited $2, expected $1"; exit 1; }
}

case "$MODE" in
  screenshot)
    png="$OUT/$(basename "$(dirname "$INPUT")")-$(basename "$INPUT" .json)${VIEW:+-$VIEW}.png"
    rm -f "$png"
    err=$(xvfb "$VIEWER" "$(flag_for "$INPUT")" "$INPUT" ${VIEW:+--view "$VIEW"} --size "$size" --screenshot "$png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc${err:+, stderr: $err}"
    if refused "$INPUT"; then
      expect_rc 1 $rc "a version 1 trace"
      [[ "$err" == *"trace format version 1 is no longer read; record it again"* ]] || { echo "FAIL: no one-line refusal"; exit 1; }
    else
      expect_rc 0 $rc "$INPUT"
      [[ -z "$err" ]] || { echo "FAIL: errors on stderr"; exit 1; }
    fi
    "$PNG_CHECK" "$png" "$w" "$h"
    ;;
  defaults)
    # No files named: everything in assets/, the version 1 traces skipped with a note (not an error).
    png="$OUT/defaults-${VIEW}.png"
    err=$(xvfb "$VIEWER" --view "$VIEW" --size "$size" --screenshot "$png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc${err:+, stderr: $err}"
    expect_rc 0 $rc "the defaults"
    "$PNG_CHECK" "$png" "$w" "$h"
    ;;
  stale)
    # A kernel with a missing barrier beside the solution, on the same input: the stale read is
    # flagged (red) and the first difference marked (magenta); the solution alone shows neither.
    png="$OUT/stale-$(basename "$INPUT" .json).png"
    xvfb "$VIEWER" --trace "$INPUT" --trace "$INPUT2" --view tree --step "${STEP:-3}" --size "$size" --screenshot "$png"
    expect_rc 0 $? "the pair"
    "$PNG_CHECK" "$png" "$w" "$h" || exit 1
    "$PNG_CHECK" --color "$png" $stale_rgb 400 || exit 1
    "$PNG_CHECK" --color "$png" $differs_rgb 100 || exit 1
    alone="$OUT/alone-$(basename "$INPUT2" .json).png"
    xvfb "$VIEWER" --trace "$INPUT2" --view tree --step "${STEP:-3}" --size "$size" --screenshot "$alone"
    expect_rc 0 $? "the solution alone"
    # Only the legend's swatches are red there (about 90 pixels); a flag's text alone is thousands.
    "$PNG_CHECK" --color "$alone" $stale_rgb 0 200 || { echo "FAIL: the solution shows a stale read"; exit 1; }
    ;;
  mismatch)
    # Two traces of different inputs: said plainly, in red.
    png="$OUT/mismatch.png"
    xvfb "$VIEWER" --trace "$INPUT" --trace "$INPUT2" --view tree --size "$size" --screenshot "$png"
    expect_rc 0 $? "the pair"
    "$PNG_CHECK" --color "$png" $stale_rgb 300
    ;;
  frames)
    first="$OUT/frames-first.png"
    last="$OUT/frames-last.png"
    xvfb "$VIEWER" --trace "$INPUT" --step 1 --screenshot "$first" || exit 1
    xvfb "$VIEWER" --trace "$INPUT" --step 999 --screenshot "$last" || exit 1
    # The step figure: later steps add rows.
    "$PNG_CHECK" --differ "$first" "$last" 0 250 1280 300
    ;;
  malformed)
    png="$OUT/malformed.png"
    err=$(xvfb "$VIEWER" --trace "$INPUT" --screenshot "$png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc, stderr: $err"
    expect_rc 1 $rc "a screenshot with a file that did not load"
    [[ "$err" == *"error: $INPUT: "* ]] || { echo "FAIL: the error did not reach stderr"; exit 1; }
    "$PNG_CHECK" "$png" "$w" "$h"
    ;;
  missing)
    # A file that is not there, beside one that is: the picture is made, the exit code says it.
    png="$OUT/missing.png"
    xvfb "$VIEWER" --trace "$INPUT" --trace "$OUT/no-such-trace.json" --screenshot "$png"
    expect_rc 1 $? "a screenshot with a missing file"
    "$PNG_CHECK" "$png" "$w" "$h"
    ;;
  counters)
    # A trace (INPUT) and a results file (RESULTS) beside a profile (PROFILE) of the same kernels: the
    # counters panel under the tree, beside the source; the counters of a point selected with --point
    # under the plot. Each picture against the same without the profile.
    with="$OUT/counters-tree.png"
    without="$OUT/counters-tree-none.png"
    err=$(xvfb "$VIEWER" --trace "$INPUT" --profile "$PROFILE" --step 4 --size "$size" --screenshot "$with" 2>&1 >/dev/null)
    expect_rc 0 $? "the trace with its profile"
    [[ -z "$err" ]] || { echo "FAIL: errors on stderr: $err"; exit 1; }
    xvfb "$VIEWER" --trace "$INPUT" --step 4 --size "$size" --screenshot "$without"
    expect_rc 0 $? "the trace alone"
    "$PNG_CHECK" "$with" "$w" "$h" || exit 1
    # The panel: the bottom right, where the source's lines do not reach.
    "$PNG_CHECK" --differ "$with" "$without" $((w * 62 / 100)) $((h * 3 / 4)) $((w * 38 / 100 - 1)) $((h / 4 - 1)) || exit 1
    with="$OUT/counters-point.png"
    without="$OUT/counters-point-none.png"
    xvfb "$VIEWER" --results "$RESULTS" --profile "$PROFILE" --point 02 --size "$size" --screenshot "$with"
    expect_rc 0 $? "a point selected"
    xvfb "$VIEWER" --results "$RESULTS" --profile "$PROFILE" --size "$size" --screenshot "$without"
    expect_rc 0 $? "no point selected"
    "$PNG_CHECK" "$with" "$w" "$h" || exit 1
    "$PNG_CHECK" --differ "$with" "$without" 0 $((h - 120)) "$w" 119 || exit 1
    # A point that is not there, and one that is not a point: one line each, exit 1 and 2.
    err=$(xvfb "$VIEWER" --results "$RESULTS" --profile "$PROFILE" --point 07 --screenshot "$OUT/counters-bad.png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc, stderr: $err"
    expect_rc 1 $rc "--point 07 (no such series)"
    [[ "$err" == "error: --point 07: no throughput series of lesson 07 on "* ]] || { echo "FAIL: no one-line error"; exit 1; }
    err=$("$VIEWER" --point 2x --screenshot "$OUT/counters-bad.png" 2>&1)
    expect_rc 2 $? "--point 2x"
    [[ $(printf '%s\n' "$err" | wc -l) -eq 1 && "$err" == "error: --point must be "* ]] || { echo "FAIL: $err"; exit 1; }
    # A profile of another version: refused on one line, the picture still made, exit 1.
    sed 's/"version": 1,/"version": 2,/' "$PROFILE" >"$OUT/profile-v2.json"
    err=$(xvfb "$VIEWER" --trace "$INPUT" --profile "$OUT/profile-v2.json" --screenshot "$OUT/counters-v2.png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc, stderr: $err"
    expect_rc 1 $rc "a version 2 profile"
    [[ "$err" == "error: $OUT/profile-v2.json: version is 2, only version 1 is understood"* ]] || { echo "FAIL: no one-line refusal"; exit 1; }
    "$PNG_CHECK" "$OUT/counters-v2.png" "$w" "$h"
    ;;
  measure_run)
    # --measure-fps with --measure-run: both halves' frame rates and the runs' times are reported,
    # and the Run panel really ran (a run of lesson 03's kernel at n = 1000 finishes many times),
    # then ten more with the animation paused. --max-fps 20 paces the frames (Xvfb has no vsync).
    # Six seconds, so the busy half holds two runs even when CI's two cores are shared with other
    # tests (with two seconds, one CI run saw its first run take most of the one-second half).
    out=$("$XVFB_RUN" -a "$VIEWER" --measure-fps 6 --measure-run 1000 --max-fps 20 2>&1)
    rc=$?
    echo "$out"
    [[ $rc -eq 0 ]] || { echo "FAIL: exit code $rc"; exit 1; }
    line=$(grep "^fps without a run: " <<<"$out") || { echo "FAIL: no line for the two halves"; exit 1; }
    runs=$(sed -E 's/.*; ([0-9]+) runs of lesson 03.*/\1/' <<<"$line")
    [[ $runs -ge 2 ]] || { echo "FAIL: $runs runs in the second half"; exit 1; }
    waiting=$(sed -E 's/.*waiting for input, ([0-9]+) runs.*/\1/' <<<"$line")
    [[ $waiting -eq 10 ]] || { echo "FAIL: $waiting runs with the animation paused, not 10"; exit 1; }
    fps=$(sed -E 's/^fps: ([0-9.]+) .*/\1/' <<<"$(grep '^fps: ' <<<"$out")")
    awk -v f="$fps" 'BEGIN { exit !(f > 5 && f <= 21) }' || { echo "FAIL: $fps fps with --max-fps 20"; exit 1; }
    ;;
  nodisplay)
    out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$VIEWER" --screenshot "$OUT/none.png" 2>&1)
    rc=$?
    echo "exit code $rc, output: $out"
    [[ $rc -eq 2 ]] || { echo "FAIL: expected exit code 2"; exit 1; }
    [[ $(printf '%s\n' "$out" | wc -l) -eq 1 && "$out" == "error: no display: "* ]] || { echo "FAIL: expected one line"; exit 1; }
    ;;
  *)
    echo "unknown MODE $MODE"
    exit 2
    ;;
esac

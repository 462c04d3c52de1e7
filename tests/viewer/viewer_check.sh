#!/usr/bin/env bash
# Runs reducelab_viewer under Xvfb and checks what it wrote. Exit 77 (skipped) when xvfb-run is
# missing. Environment: VIEWER, PNG_CHECK, XVFB_RUN, OUT, MODE, INPUT, VIEW, SIZE.
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
flag_for() { if grep -q '"reducelab.trace"' "$1"; then echo --trace; else echo --results; fi; }

case "$MODE" in
  screenshot)
    png="$OUT/$(basename "$(dirname "$INPUT")")-$(basename "$INPUT" .json)${VIEW:+-$VIEW}.png"
    rm -f "$png"
    xvfb "$VIEWER" "$(flag_for "$INPUT")" "$INPUT" ${VIEW:+--view "$VIEW"} --size "$size" --screenshot "$png" || exit 1
    "$PNG_CHECK" "$png" "$w" "$h"
    ;;
  frames)
    first="$OUT/frames-first.png"
    last="$OUT/frames-last.png"
    xvfb "$VIEWER" --trace "$INPUT" --step 0 --screenshot "$first" || exit 1
    xvfb "$VIEWER" --trace "$INPUT" --step 999 --screenshot "$last" || exit 1
    # The left column of the tree above the leaves, where the combines at shared[0] and the
    # output node (the final node) appear only in later frames.
    "$PNG_CHECK" --differ "$first" "$last" 50 110 70 300
    ;;
  malformed)
    png="$OUT/malformed.png"
    err=$(xvfb "$VIEWER" --trace "$INPUT" --screenshot "$png" 2>&1 >/dev/null)
    rc=$?
    echo "exit code $rc, stderr: $err"
    [[ $rc -eq 0 ]] || { echo "FAIL: the viewer did not survive"; exit 1; }
    [[ "$err" == *"error: $INPUT: "* ]] || { echo "FAIL: the error did not reach stderr"; exit 1; }
    "$PNG_CHECK" "$png" "$w" "$h"
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

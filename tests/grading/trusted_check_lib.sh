# Shared by expect_trusted_check.sh and expect_trusted_runs.sh (sourced; needs exe, work, fail):
# hand_back runs EXE's solution once with a fresh seed and keeps its outputs in $work/outputs (sets
# seed); expect WHAT FILE SEED PHRASE... asks EXE's trusted --grade-check for its verdict on FILE
# and fails unless each phrase is in its result and first failure.
hand_back() {
  rm -rf "$work" && mkdir -p "$work"
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  seed=$((seed + 1))
  "$exe" --grade --backend sim --grade-seed "$seed" --grade-outputs-fd 3 3>"$work/outputs" >"$work/run.log" 2>&1 \
    || fail "the solution's run failed: $(tail -3 "$work/run.log")"
}
verdict() {  # verdict FILE SEED: the trusted verdict's result and first failure, on one line
  "$exe" --grade --backend sim --grade-seed "$2" --grade-check "$1" >"$work/check.log" 2>&1 || true
  grep -E "^(result|first failure):" "$work/check.log" | paste -sd' ' -
}
expect() {  # expect WHAT FILE SEED PHRASE...
  local what=$1 file=$2 s=$3 got
  shift 3
  got=$(verdict "$file" "$s")
  for phrase in "$@"; do grep -qF -- "$phrase" <<<"$got" || fail "$what: '$phrase' not in: $got"; done
  echo "$what: $got" | cut -c1-200
}

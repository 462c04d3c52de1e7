#!/usr/bin/env bash
# The sandbox's watch (common/sandbox/watch.cpp) refuses writes outside the folder it is given and
# lets through the few that write no one's file:
#   expect_watch_rules.sh WATCH WORK
# Run directly (no bubblewrap): io_uring is missing (ENOSYS) rather than a refusal; a thread naming
# itself through /proc/self and an open without O_CREAT of a missing file go on; a write outside,
# and a /proc/self path that climbs out of it, are refused and named; an internet socket is refused
# and named, but not with --loopback.
set -euo pipefail
watch=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/allowed"
outside=$work/outside-file
# run WHAT COMMAND...: runs COMMAND under the watch; sets rc and report (what the watch named).
run() {
  local what=$1
  shift
  rc=0
  "$watch" 4 "$work/allowed" -- "$@" 4>"$work/report" >"$work/out" 2>&1 || rc=$?
  report=$(cat "$work/report")
  echo "$what: rc=$rc report='${report}' printed='$(head -c 120 "$work/out" | tr '\n' ' ')'"
}
run "io_uring_setup" /usr/bin/python3 -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
r = libc.syscall(425, 1, params)
print("errno", ctypes.get_errno() if r < 0 else "none")'
[ -z "$report" ] && [ $rc -eq 0 ] && grep -q "errno 38" "$work/out" || fail "io_uring_setup is not ENOSYS and unreported"
run "a thread names itself" /usr/bin/python3 -c '
import threading
def name(): open("/proc/self/task/%d/comm" % threading.get_native_id(), "w").write("worker")
t = threading.Thread(target=name); t.start(); t.join(); print("named")'
[ -z "$report" ] && grep -q named "$work/out" || fail "/proc/self/task/T/comm was refused"
run "opening a missing file without creating it" /usr/bin/python3 -c '
try: open("/nonexistent-reducelab/x", "r+")
except FileNotFoundError: print("missing")'
[ -z "$report" ] && grep -q missing "$work/out" || fail "an open of a missing file was refused"
run "a write inside the folder" sh -c "echo x > '$work/allowed/f'"
[ -z "$report" ] && [ -f "$work/allowed/f" ] || fail "a write inside the folder was refused"
run "a write outside" sh -c "echo x > '$outside'"
[ "$report" = "write $outside" ] && [ ! -e "$outside" ] || fail "a write outside was not refused and named"
run "a /proc/self path that climbs out" sh -c "echo x > /proc/self/../../$outside"
[ -n "$report" ] && [ ! -e "$outside" ] || fail "/proc/self/../.. was let through"
socket_py='import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM); print("opened")'
run "an internet socket" /usr/bin/python3 -c "$socket_py"
[ "$report" = "network AF_INET" ] && [ $rc -ne 0 ] || fail "an internet socket was not refused and named"
rc=0
"$watch" 4 "$work/allowed" --loopback -- /usr/bin/python3 -c "$socket_py" 4>"$work/report" >"$work/out" 2>&1 || rc=$?
echo "an internet socket with --loopback: rc=$rc report='$(cat "$work/report")'"
[ -z "$(cat "$work/report")" ] && grep -q opened "$work/out" || fail "--loopback did not let a socket open"
echo "the watch refuses writes outside and lets through only what writes no one's file"

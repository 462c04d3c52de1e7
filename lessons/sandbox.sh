#!/usr/bin/env bash
# The sandbox lessons/grade.sh builds and runs each submission in (lessons/GRADING.md): Debian's
# bubblewrap, no network, the file system read-only but for the submission's own build folder,
# nothing of the class but the submission's own folder, and limits on time, memory, processes,
# open files and output. Sourced by grade.sh; defines sandbox_problem and sandboxed.
# (Sourced: grade.sh's shell options hold.)
sandbox_mem=$((4 << 30))   # bytes of data (RLIMIT_DATA): the simulator's largest grade needs ~1 GiB
sandbox_nproc=256          # processes and threads of the sandbox's user
sandbox_nofile=256         # open files
sandbox_fsize=$((256 << 20))  # bytes of any one file it writes (objects, executables)
sandbox_output=$((1 << 20))   # bytes of output it may print; the rest is cut and is a failure
sandbox_uid=$(id -u)
# As root, bubblewrap keeps root's powers inside; the submission runs as nobody instead (and so a
# limit on processes holds: the kernel never counts root's).
[ "$sandbox_uid" -ne 0 ] || sandbox_uid=65534

# Its own network (none), processes, IPC and host name; a user namespace where not root (as root,
# the submission's process drops to nobody instead: see sandboxed).
sandbox_unshare=(--unshare-net --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try)
[ "$(id -u)" -eq 0 ] || sandbox_unshare+=(--unshare-user)

# The top-level folders the tools live in, read-only (not /home, /root, /tmp, /var, /work...).
sandbox_system=()
for d in /usr /etc /bin /sbin /lib /lib32 /lib64 /libx32 /opt; do
  [ -e "$d" ] && sandbox_system+=(--ro-bind "$d" "$d")
done

# PATH inside: the folders the build's tools are in outside (only those of them the system folders
# above show, read-only; a machine may keep cmake in /opt, say), then CUDA's and the system's.
sandbox_path=/usr/local/cuda/bin:/usr/bin:/bin
for tool in cmake ninja c++ nvcc; do
  where=$(command -v "$tool" 2>/dev/null) || continue
  case ":$sandbox_path:" in *":$(dirname "$where"):"*) ;; *) sandbox_path=$(dirname "$where"):$sandbox_path ;; esac
done

# The folders above PATH, made in the sandbox so that nobody may pass them (bubblewrap makes a mount
# point's missing parents readable by root alone). Sets mount_points.
mount_point() {
  local d=$1 above=()
  while d=$(dirname "$d") && [ "$d" != / ]; do above=("$d" "${above[@]}"); done
  for d in "${above[@]}"; do mount_points+=(--perms 0755 --dir "$d"); done
}

# sandbox_watch: the trusted build's reducelab_sandbox_watch (set by grade.sh before any call);
# sandbox_loopback: non-empty where the command may open internet sockets, which the sandbox's own
# network (loopback alone) keeps in: lesson 22's NCCL bootstraps over TCP to itself.
# sandboxed ROOT BUILD BOX SUBMISSION HIDE LIMIT OUT -- COMMAND...: runs COMMAND in the sandbox,
# stdout and stderr to OUT (cut at sandbox_output bytes); the source tree ROOT read-only, BOX (the
# submission's own copy of the build) read-write at BUILD's path, SUBMISSION read-only at its own
# path, HIDE (the class folder, or -) hidden where it lies inside what is shown; killed after LIMIT
# seconds. Sets sandbox_rc (its exit code; 124: timed out) and
# sandbox_procs (processes of the sandbox's user when it was killed for time) and sandbox_refused
# (the watch's line, where it stopped the command).
sandboxed() {
  local root=$1 build=$2 box=$3 submission=$4 hide=$5 limit=$6 out=$7
  shift 8
  local args=("${sandbox_unshare[@]}" --die-with-parent --new-session --clearenv
    "${sandbox_system[@]}" --proc /proc --dev /dev --tmpfs /tmp)
  mount_points=()
  mount_point "$root"
  args+=("${mount_points[@]}" --ro-bind "$root" "$root")
  mount_points=()
  mount_point "$build"
  args+=("${mount_points[@]}")
  # Whatever of the grader's own folders lies inside the tree is hidden (other students' logs).
  args+=(--bind "$box" "$build")
  [ "$hide" = - ] || [ ! -d "$hide" ] || args+=(--tmpfs "$hide")
  [ "$hide" = - ] || [ ! -f "$hide-results.csv" ] || args+=(--ro-bind /dev/null "$hide-results.csv")
  mount_points=()
  mount_point "$submission"
  args+=("${mount_points[@]}" --ro-bind "$submission" "$submission" --remount-ro /tmp)
  # On a GPU machine, the GPU's device files and nothing else.
  local dev
  for dev in /dev/nvidia*; do
    [ -e "$dev" ] && args+=(--dev-bind "$dev" "$dev")
  done
  # A tool that is a Python script (pip's cmake and ninja are) would write its bytecode cache beside
  # itself: the watch stops that as a write outside the folder, so Python is asked not to.
  args+=(--setenv PATH "$sandbox_path" --setenv HOME "$build/home" --setenv PYTHONDONTWRITEBYTECODE 1
    --setenv TMPDIR "$build/tmp" --setenv CUDA_CACHE_DISABLE 1 --setenv LANG C.UTF-8 --chdir "$build")
  mkdir -p "$box/home" "$box/tmp"
  # As root, made here for nobody (compilers write their temporary files to TMPDIR).
  [ "$(id -u)" -ne 0 ] || chown 65534:65534 "$box/home" "$box/tmp"
  local drop=()
  if [ "$(id -u)" -eq 0 ]; then
    drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
  fi
  local nproc=$sandbox_nproc before
  before=$(pgrep -c -U "$sandbox_uid" || true)
  # Not root: the limit counts the grader's own processes too.
  [ "$(id -u)" -eq 0 ] || nproc=$(($(pgrep -c -U "$sandbox_uid") + sandbox_nproc))
  # The watch (trusted: the grader's own build) names a write outside BOX or an internet socket.
  args+=(--perms 0755 --dir "$(dirname "$sandbox_watch")" --ro-bind "$sandbox_watch" "$sandbox_watch")
  : >"$out.report"
  bwrap "${args[@]}" -- "${drop[@]}" prlimit --nproc="$nproc" --nofile="$sandbox_nofile" \
    --data="$sandbox_mem" --fsize="$sandbox_fsize" --core=0 -- \
    "$sandbox_watch" 4 "$build" ${sandbox_loopback:+--loopback} -- "$@" >"$out.full" 2>&1 4>"$out.report" &
  local pid=$! watcher
  (
    timeout "$limit" tail --pid="$pid" -f /dev/null 2>/dev/null && exit 0
    pgrep -c -U "$sandbox_uid" >"$out.procs" || true
    kill -KILL "$pid" 2>/dev/null
    echo timed-out >"$out.timed-out"
  ) &
  watcher=$!
  sandbox_rc=0
  wait "$pid" || sandbox_rc=$?
  wait "$watcher" 2>/dev/null || true
  sandbox_procs=0
  if [ -f "$out.timed-out" ]; then
    sandbox_rc=124
    sandbox_procs=$(cat "$out.procs" 2>/dev/null || echo 0)
  fi
  # A killed sandbox's processes take a moment to go (a fork bomb's hundreds): the next one must
  # not start under their count.
  local wait=0
  while [ "$(pgrep -c -U "$sandbox_uid" || true)" -gt "$before" ] && [ $wait -lt 100 ]; do
    sleep 0.1
    wait=$((wait + 1))
  done
  rm -f "$out.procs" "$out.timed-out"
  sandbox_refused=$(head -1 "$out.report")
  rm -f "$out.report"
  sandbox_printed=$(stat -c %s "$out.full")
  head -c "$sandbox_output" "$out.full" >"$out"
  rm -f "$out.full"
}

# sandbox_class OUT: the one-line class of a sandboxed step that went wrong by the sandbox's
# measure (its output, time, processes, memory), or nothing.
sandbox_class() {
  if [[ $sandbox_refused == "write "* ]]; then
    echo "tried to write outside its folder: ${sandbox_refused#write } (refused, and stopped)"
  elif [[ $sandbox_refused == "network "* ]]; then
    echo "tried to reach the network: an internet socket (${sandbox_refused#network }; refused, and stopped)"
  elif [ "$sandbox_printed" -gt "$sandbox_output" ]; then
    echo "too much output: printed more than $((sandbox_output >> 10)) KiB (cut there)"
  elif [ "$sandbox_rc" -eq 124 ] && [ "$sandbox_procs" -ge $((sandbox_nproc * 9 / 10)) ]; then
    echo "too many processes: reached the sandbox's $sandbox_nproc and was stopped"
  elif [ "$sandbox_rc" -eq 124 ]; then
    echo "timed out: ran more than $sandbox_limit_shown s"
  elif grep -qE "std::bad_alloc|Cannot allocate memory|out of memory" "$1"; then
    echo "used too much memory: more than the sandbox's $((sandbox_mem >> 30)) GiB"
  fi
}

# sandbox_problem: nothing when the sandbox starts here, else one line saying why not.
sandbox_problem() {
  command -v bwrap >/dev/null || { echo "bubblewrap (bwrap) is not installed (apt-get install bubblewrap)"; return; }
  command -v prlimit >/dev/null || { echo "prlimit (util-linux) is not installed"; return; }
  local why
  local drop=()
  [ "$(id -u)" -ne 0 ] || drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
  if ! why=$(bwrap "${sandbox_unshare[@]}" --die-with-parent "${sandbox_system[@]}" --proc /proc --dev /dev \
    -- "${drop[@]}" true 2>&1); then
    echo "bubblewrap cannot start a sandbox here (${why:-no reason given}; user namespaces off, or no right to mount)"
  fi
}

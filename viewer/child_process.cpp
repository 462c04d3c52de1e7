#include "viewer/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace rl::viewer {
namespace {

constexpr std::size_t kMaxOutput = std::size_t{16} << 20;

// Closes a descriptor once, when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

StepOutput run_command(const std::vector<std::string>& argv, double timeout_s,
                       const std::atomic<bool>* cancel) {
  StepOutput out;
  if (argv.empty()) {
    out.start_error = "cannot run an empty command";
    return out;
  }
  int fds[2];
  // O_CLOEXEC: the pipe's read end must not leak into the child (nor into any other child a thread
  // of the viewer starts meanwhile), or the read below would never see the end of the output.
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    out.start_error = std::string("cannot run ") + argv[0] + ": pipe: " + std::strerror(errno);
    return out;
  }
  Fd read_end{fds[0]}, write_end{fds[1]};

  // posix_spawn, not fork: the viewer has other threads (GLFW's, the simulator's), and a fork of
  // a threaded process may run nothing but async-signal-safe code before its exec.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, 1);  // dup2 clears O_CLOEXEC on 1 and 2
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own, so that a timeout (or the viewer closing) kills the command and everything
  // it started. (A Ctrl-C in the terminal therefore reaches the viewer only; a step in flight then
  // runs on to its end, each being bounded.)
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(write_end.fd);  // only the child writes now: the read ends when it (and its own) exit
  write_end.fd = -1;
  if (rc != 0) {
    out.start_error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return out;
  }

  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  bool killed = false;
  char buf[65536];
  while (true) {
    if (!killed && (Clock::now() >= deadline || (cancel && cancel->load()))) {
      out.timed_out = Clock::now() >= deadline;
      ::kill(-pid, SIGKILL);  // the group: the command and whatever it started
      killed = true;
    }
    pollfd p{read_end.fd, POLLIN, 0};
    // A tenth of a second: how soon a timeout or a cancel is noticed.
    const int ready = ::poll(&p, 1, killed ? 1000 : 100);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      if (killed) break;  // killed, and nothing more within a second: stop reading
      continue;
    }
    const ssize_t n = ::read(read_end.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of output: every writer has exited
    if (out.output.size() < kMaxOutput)
      out.output.append(
          buf, std::min<std::size_t>(static_cast<std::size_t>(n), kMaxOutput - out.output.size()));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (cancel && cancel->load() && !out.timed_out) out.start_error = "cancelled";
  return out;
}

}  // namespace rl::viewer

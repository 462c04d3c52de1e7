#include "common/host/watchdog.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <stdexcept>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rl {

void Reporter::say(const std::string& line) const {
  std::string text = line;
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  text += '\n';
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t w = ::write(fd_, text.data() + done, text.size() - done);
    if (w <= 0) return;  // the parent has gone: nobody to tell
    done += static_cast<std::size_t>(w);
  }
}

WatchedRun run_watched(const std::function<int(const Reporter&)>& work, double quiet_limit_s) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("watchdog: cannot create a pipe");
  std::cout.flush();  // what is buffered now must not be printed twice, by parent and child
  std::cerr.flush();
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("watchdog: cannot fork");
  if (child == 0) {
    ::close(fds[0]);
    int code = 1;
    const Reporter reporter(fds[1]);
    try {
      code = work(reporter);
    } catch (const std::exception& e) {
      reporter.say(std::string("error ") + e.what());
    }
    std::cout.flush();
    std::cerr.flush();
    ::_exit(code);  // no static destructors: they belong to the parent
  }
  ::close(fds[1]);
  WatchedRun run;
  run.quiet_limit_s = quiet_limit_s;
  std::string pending;
  using clock = std::chrono::steady_clock;
  auto deadline = clock::now() + std::chrono::duration<double>(quiet_limit_s);
  bool open = true;
  while (open) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) {
      ::kill(child, SIGKILL);
      run.end = WatchedRun::End::silent;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready <= 0) continue;  // timed out (the loop sees it) or interrupted
    char buf[4096];
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got <= 0) {
      open = false;  // the child closed its end: it is exiting
      break;
    }
    pending.append(buf, static_cast<std::size_t>(got));
    for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
      run.lines.push_back(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
    // it is alive and working
    deadline = clock::now() + std::chrono::duration<double>(quiet_limit_s);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (run.end == WatchedRun::End::silent) return run;
  if (WIFSIGNALED(status)) {
    run.end = WatchedRun::End::signalled;
    run.code = WTERMSIG(status);
  } else {
    run.code = WEXITSTATUS(status);
  }
  return run;
}

}  // namespace rl

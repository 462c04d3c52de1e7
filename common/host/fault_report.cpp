#include "common/host/fault_report.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "common/sim/runtime.h"

namespace rl {
namespace {

int fault_fd = 2;
const char* fault_prefix = "error: ";
int fault_exit = 1;
bool installed = false;
std::atomic_flag reporting = ATOMIC_FLAG_INIT;

// Ends the process with `line`, once: what the program printed before (buffered while stdout is a
// file or a pipe) first, then prefix + line. Called from the signal handler: only write, and
// stdout's own lock taken without waiting (a thread stopped while holding it must not hang the
// report).
void report(const char* line) {
  if (reporting.test_and_set()) {
    for (;;) ::pause();  // another thread is reporting, and will end the process
  }
  if (::ftrylockfile(stdout) == 0) {
    std::fflush(stdout);
    ::funlockfile(stdout);
  }
  [[maybe_unused]] ssize_t w = ::write(fault_fd, fault_prefix, std::strlen(fault_prefix));
  w = ::write(fault_fd, line, std::strlen(line));
  w = ::write(fault_fd, "\n", 1);
  ::_exit(fault_exit);
}

// The handler runs on the faulting fiber's stack, in a process that may be in any state: it
// allocates nothing. In a simulated kernel the simulator picks the fault to report (the lowest
// block's) and calls report() from the last of the launch's host threads; elsewhere it reports now.
void on_fault(int signal, siginfo_t* info, void*) {
  // not reached: report() ends the process
  if (sim::stop_on_kernel_fault(info->si_addr, report)) return;
  char line[128];
  std::snprintf(line, sizeof line, "the program faulted (signal %d) outside a simulated kernel",
                signal);
  report(line);
}

}  // namespace

bool kernel_faults_reported() { return installed; }

void report_kernel_faults(int fd, const char* prefix, int exit_code) {
  installed = true;
  fault_fd = fd;
  fault_prefix = prefix;
  fault_exit = exit_code;
  struct sigaction a {};
  a.sa_sigaction = on_fault;
  a.sa_flags = SA_SIGINFO;
  sigemptyset(&a.sa_mask);
  sigaction(SIGSEGV, &a, nullptr);
  sigaction(SIGBUS, &a, nullptr);
}

}  // namespace rl

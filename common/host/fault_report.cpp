#include "common/host/fault_report.h"

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

// Only snprintf and write here: the handler runs on the faulting fiber's stack, in a process that
// may be in any state, so it allocates nothing and ends the process itself.
void on_fault(int signal, siginfo_t* info, void*) {
  char line[512];
  if (!sim::describe_fault(info->si_addr, line, sizeof line))
    std::snprintf(line, sizeof line, "the program faulted (signal %d) outside a simulated kernel", signal);
  [[maybe_unused]] ssize_t w = ::write(fault_fd, fault_prefix, std::strlen(fault_prefix));
  w = ::write(fault_fd, line, std::strlen(line));
  w = ::write(fault_fd, "\n", 1);
  ::_exit(fault_exit);
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

#pragma once
// A memory fault inside a simulated kernel (an index past dynamic shared memory, which ends at a
// protected page) becomes one line naming the kernel, block and thread, instead of a bare
// "Segmentation fault". The line is `prefix` + the report, written once to file descriptor `fd`
// after stdout's buffered output is flushed; then the process ends with `exit_code`. When several
// blocks fault, the report names the lowest of them, on every run (sim::stop_on_kernel_fault).
namespace rl {

void report_kernel_faults(int fd, const char* prefix, int exit_code);
// Whether report_kernel_faults has been called in this process (the grader's child sets its own
// reporter before it opens a device, and opening the simulator must not replace it).
bool kernel_faults_reported();

}  // namespace rl

#pragma once
// One command run to its end in a child process (POSIX; the native viewer only): what watch mode's
// rounds run (the build, the grader, the traces). No shell, so no quoting to get wrong.
#include <atomic>
#include <string>
#include <vector>

#include "viewer/watch_model.h"

namespace rl::viewer {

// Runs argv[0] (looked up in PATH) with its arguments, its stdout and stderr into one pipe, stdin
// from /dev/null, in a process group of its own; waits at most `timeout_s`, or until `*cancel` is
// set, and then kills the whole group (cmake's ninja and its compilers with it). The output is kept
// up to 16 MiB. StepOutput::written is left empty: the caller reads the file the command wrote.
StepOutput run_command(const std::vector<std::string>& argv, double timeout_s,
                       const std::atomic<bool>* cancel = nullptr);

}  // namespace rl::viewer

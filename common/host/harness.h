#pragma once
// What every executable does around the kernels: pick the backend (and say which on the first
// line), turn exceptions into one-line errors with the right exit code, and print results.
#include <functional>
#include <memory>
#include <ostream>
#include <vector>

#include "common/host/cli.h"
#include "common/host/device.h"
#include "common/host/lesson_main.h"
#include "common/host/session.h"

namespace rl {

// Exit codes: 0 verified, 1 a wrong result or a runtime failure, 2 bad input (usage, sizes,
// memory).
inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_usage = 2;

// Opens the requested backend, or the GPU when one is visible and else the simulator, and prints
// the choice as the first line of output. Applies the simulator's options. Throws UsageError when
// the GPU was asked for and there is none.
std::unique_ptr<Device> open_device(const RunOptions& o, std::ostream& out);

// The default size where --n is not given: large on a GPU, seconds on the simulator.
std::uint64_t default_n(Backend b);
// Where --trace is given: a tree small enough to watch.
inline constexpr std::uint64_t default_trace_n = 64;
inline constexpr unsigned default_trace_block = 32;

// Runs body, printing any exception as "error: ..." on one line; returns the exit code.
int guarded(const std::function<int()>& body);

// Human-readable report of one case, with the ceiling and CUB where measured.
void print_case(std::ostream& out, const CaseResult& r, const Baseline* baseline);

}  // namespace rl

#pragma once
// What the harness knows of a lesson's kernel: a table of plain functions, one per backend, so the
// same host code can check, time and trace any rung on the GPU or on the simulator.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rl {

enum class Backend { gpu, sim };
std::string_view to_string(Backend b);

// The facts about the device a launch plan may size itself from (grid from SM count, and so on).
struct DeviceShape {
  unsigned sm_count = 132;          // the simulator pretends to be an H100, so plans match
  unsigned max_threads_per_sm = 2048;
  std::size_t l2_bytes = 50u << 20;
};

struct Reducer {
  int lesson = 0;                   // the rung's number, 1..
  std::string_view slug;            // folder name without the number: "sequential_addressing"
  std::string_view title;           // one line for tables: "Sequential addressing"
  std::string_view variant;         // "" for the lesson's own kernel; otherwise what differs
  Backend backend = Backend::sim;
  // The block size this plan was tuned for, used unless --block is given; 0: take --block.
  unsigned preferred_block = 0;
  // Device bytes of scratch that reduce() needs for this n and block size.
  std::size_t (*scratch_bytes)(std::uint64_t n, unsigned block, const DeviceShape& shape) = nullptr;
  // Reduces n floats at device address `in` into the one float at device address `out`.
  void (*reduce)(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch,
                 const DeviceShape& shape, void* stream) = nullptr;
  // The longest chain of float additions the plan makes (see summation_depth): sets the tolerance.
  std::uint64_t (*depth)(std::uint64_t n, unsigned block, const DeviceShape& shape) = nullptr;
  // The same plan with the kernels' RecordTrace policy, and how to point this lesson's kernels at a
  // TraceBuffer (common/trace/recorder.h). Null where the kernels are not ours (lesson 12).
  void (*reduce_traced)(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch,
                        const DeviceShape& shape, void* stream) = nullptr;
  void (*attach_trace)(const void* trace_buffer) = nullptr;
  // The kernel header this build compiled, relative to the source tree where it lies inside it: the
  // solution, the exercise (student mode) or a student's submission.
  std::string_view source = {};
};

// Lessons register themselves at static-initialisation time (see common/register.h).
bool register_reducer(const Reducer& r);
// All registered reducers, ordered by lesson, then variant ("" first), then backend.
std::vector<Reducer> registered_reducers();
const Reducer* find_reducer(int lesson, Backend backend, std::string_view variant = "");

// The block size a run of r uses: --block when given, else the plan's own, else the default.
unsigned block_for(const Reducer& r, unsigned requested, bool requested_explicitly);

}  // namespace rl

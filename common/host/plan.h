#pragma once
// A lesson's launch plan as the harness sees it: how much scratch memory it needs, how it launches
// its kernels (plain and traced), and how deep its sum gets (for the tolerance). Each lesson's
// plan.cu fills one Plan per kernel variant, once per backend it is compiled for, and returns them
// from lesson_plans<Lesson, Backend>(): main.cpp -> rl::lesson_main<Lesson> -> lesson_plans ->
// plan.cu.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

// Which copy of a kernel runs: the GPU's (nvcc) or the CPU simulator's (g++).
enum class Backend { gpu, sim };
std::string_view to_string(Backend b);

// The facts about the device a plan may size itself from (grid from SM count, and so on). On the
// GPU, cudaGetDeviceProperties's; the simulator pretends to be an H100 (its defaults), so plans
// match.
struct DeviceShape {
  unsigned sm_count = 132;
  unsigned max_threads_per_sm = 2048;
  unsigned max_blocks_per_sm = 32;
  unsigned registers_per_sm = 65536;
  std::size_t shared_bytes_per_sm = 233472;      // 228 KiB
  std::size_t reserved_shared_per_block = 1024;  // what the system takes of it for each block
  std::size_t l2_bytes = 50u << 20;
};

// What one SM holds of a kernel at one block size (common/occupancy.h): on the GPU the occupancy
// API's answer (cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaFuncGetAttributes); on the
// simulator the shape's thread, block and shared-memory limits (a CPU kernel has no registers).
struct KernelResources {
  unsigned blocks_per_sm = 0;    // resident at once
  unsigned registers = 0;        // per thread; 0 on the simulator, which cannot count them
  std::size_t shared_bytes = 0;  // per block, static and dynamic (the simulator: dynamic only)
};

// How timed calls reach the GPU (lesson 15). `stream`: each call's launches are enqueued on the
// stream as the host makes them, so the host's launch rate can set the pace. `graph`: the calls of
// a sample are recorded once into a CUDA graph (stream capture) and the graph is replayed, one host
// call for all of them.
enum class LaunchPath { stream, graph };
// A launch way: how the calls reach the GPU, and whether the plan's kernels are launched to overlap
// the kernel before them (programmatic dependent launch, lesson 13). A rung is compared only with a
// ceiling launched the same way.
struct LaunchWay {
  LaunchPath launch = LaunchPath::stream;
  bool programmatic = false;
  friend bool operator==(const LaunchWay&, const LaunchWay&) = default;
};
// "stream", "stream+PDL", "graph", "graph+PDL"
std::string to_string(LaunchWay way);

struct TraceBuffer;

// One reduction a plan is asked for: n floats at device address `in` into the one float at device
// address `out`, with `block` threads a block and `scratch` (scratch_bytes of device memory),
// enqueued on `stream`.
struct ReduceCall {
  const float* in = nullptr;
  float* out = nullptr;
  std::uint64_t n = 0;
  unsigned block = 0;
  void* scratch = nullptr;
  DeviceShape shape;
  void* stream = nullptr;
};
using ReduceFunction = void (*)(const ReduceCall& call);

// What a lesson's grade checks of its idea in a trace of its kernel's first block, beside right
// totals (common/host/idea.h). Each check is a flaw an earlier rung had and this one removes.
struct Idea {
  // The block's values meet in a tree: at most ceil(log2(block)) + 1 levels of additions (the + 1
  // for an add while loading), not one thread adding them one after another.
  bool tree = false;
  // Whole warps work or rest: no warp has idle lanes at a level where 32 or more threads work.
  bool whole_warps = false;
  // Every warp-wide shared-memory access touches one word per bank.
  bool no_bank_conflicts = false;
  // No __syncthreads closes a level where 32 threads or fewer work: the last warp needs none.
  bool last_warp_unsynced = false;
  // The last warp narrows: from its first level on, each level where 32 threads or fewer add has
  // at most half the adders of the one before (only the lanes whose sums are still needed work).
  bool last_warp_narrows = false;
  // The last warp adds through shuffles: at least log2(32) levels of them.
  bool last_warp_shuffles = false;
  // At most this many __syncthreads in a block; -1: not checked.
  int max_barriers = -1;
  // The first block reads past the grid's reach (gridDim.x * blockDim.x inputs): its threads'
  // second inputs lie in the grid's other half of the input, not one block on.
  bool loads_past_reach = false;
  // The handover between blocks is ordered by the atomics' own memory order: no __threadfence()
  // anywhere in the run (a release and an acquire written as the ticket's order, not as fences).
  bool no_fences = false;
  // A call launched to overlap the one before it does its own block's work (a block sum: its
  // __syncthreads) before it waits for that call: judged on the queued calls (grading.h), where
  // the simulator runs the second call's first block up to its wait first.
  bool works_before_wait = false;
  // A cluster's blocks hand their sums to its first block in distributed shared memory: at least
  // one block in two of the first launch maps another block's shared memory (lesson 14's clusters
  // of 2, whose second blocks store into their first's).
  bool cluster_shares = false;
  // Thread 0 of block 0 issues at least this many loads before its first addition: the next
  // turn's loads are on their way before it adds the turn it holds (lesson 11's load_ahead, 2 x its
  // loads a turn). 0: not checked.
  unsigned loads_ahead = 0;
  // The checks read the trace's last launch (a finishing kernel the exercise asks for), not its
  // first. Selects; checks nothing itself.
  bool last_launch = false;
  bool any() const {
    return tree || whole_warps || no_bank_conflicts || last_warp_unsynced || last_warp_narrows ||
           last_warp_shuffles || max_barriers >= 0 || loads_past_reach || no_fences ||
           works_before_wait || cluster_shares || loads_ahead > 0;
  }
};

struct Plan {
  int lesson = 0;            // the rung's number, 1..
  std::string_view slug;     // folder name without the number: "sequential_addressing"
  std::string_view title;    // one line for tables: "Sequential addressing"
  std::string_view variant;  // "" for the lesson's own kernel; otherwise what differs
  Backend backend = Backend::sim;
  // The block size this plan was tuned for, used unless --block is given; 0: take --block.
  unsigned preferred_block = 0;
  // Device bytes of scratch that reduce() needs for this n and block size.
  std::size_t (*scratch_bytes)(std::uint64_t n, unsigned block, const DeviceShape& shape) = nullptr;
  // Enqueues the reduction (the kernels' NoTrace policy: what is timed).
  ReduceFunction reduce = nullptr;
  // The longest chain of float additions the plan makes (see summation_depth): sets the tolerance.
  std::uint64_t (*depth)(std::uint64_t n, unsigned block, const DeviceShape& shape) = nullptr;
  // The same launches with the kernels' RecordTrace policy, and how to point this plan's kernels at
  // a TraceBuffer (common/device/traced.h). Null where the kernels are not ours (lesson 16).
  ReduceFunction reduce_traced = nullptr;
  void (*attach_trace)(const TraceBuffer& buffer) = nullptr;
  // The kernel file this build compiled, relative to the source tree where it lies inside it: the
  // solution, the exercise (student mode) or a student's submission.
  std::string_view source = {};
  // Lessons 07-13, whose grid is as many blocks as the SMs hold at once: what an SM holds of
  // the main kernel (the untraced one, which the traced copy's grid follows) at a block size; and
  // the loads each thread keeps in flight in it, as its source issues them: how many, of how many
  // bytes (lesson 11's table of bytes in flight). Null and 0 for the other lessons.
  KernelResources (*resources)(unsigned block, const DeviceShape& shape) = nullptr;
  unsigned loads_in_flight = 0;
  unsigned load_bytes = 0;
  // How the harness times it (lessons 13 and 15): whether its kernels are launched to overlap the
  // kernel before them (programmatic dependent launch), and whether its timed calls are recorded
  // into a graph. The ceiling it is compared with is timed the same way.
  LaunchWay way;
  // Lesson 15: the plan records its launches once per set of arguments and replays them, so a
  // second call with the same arguments launches nothing itself (its grade checks that).
  bool replays = false;
  // Lesson 16's stream_ordered: a call enqueues its work, its temporary storage included, and
  // returns without waiting for the GPU (its grade times a call on a held stream: grading.h).
  bool never_waits = false;
  // What its grade checks of its idea in a trace, on the simulator (lessons 01-10; the lesson's
  // own plan only, one a lesson).
  Idea idea;
};
using Plans = std::vector<Plan>;

// Lesson `Lesson`'s plans on backend B. Defined at the end of the lesson's plan.cu, which CMake
// compiles once per backend (common/cmake/ReduceLabLesson.cmake); an empty list where the lesson
// has no version for B (lesson 16's libraries on the simulator).
template <int Lesson, Backend B>
Plans lesson_plans();

// Lesson 07's kernel at a fixed number of inputs a thread (2, 4, ..., 2^14: variants
// "2_per_thread" ...) instead of its grid sized to the GPU: what `reducelab sweep` measures, the
// README's table of elements per thread. Defined in lesson 07's plan.cu, once per backend.
template <Backend B>
Plans elements_per_thread_plans();

// The block size a run of p uses: --block when given, else the plan's own, else the default.
unsigned block_for(const Plan& p, unsigned requested, bool requested_explicitly);

}  // namespace rl

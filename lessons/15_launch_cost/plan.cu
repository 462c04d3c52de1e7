// Lesson 15's launch plans: the single pass of launch_cost.cuh, each call launched to overlap the
// call before it (programmatic dependent launch), recorded into a graph the first time it is
// called with a set of arguments and replayed every time: the lesson's own. The harness times it
// with its timed calls recorded into one graph (Plan::way), so what is measured is the GPU running
// the kernels back to back with no launch of the host's between them. The contrast (`on_stream`):
// the same kernel launched on the stream, call by call.
// main.cpp -> rl::lesson_main<15> -> lesson_plans<15, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "common/block_dispatch.h"
#include "common/occupancy.h"
#include "common/plan_entry.h"
#include "lessons/15_launch_cost/launch_cost.cuh"
#include "lessons/15_launch_cost/probe.h"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // lesson 12's: each thread's share at least 4 float4s

// As many blocks as the GPU holds at once (the occupancy API), no more than the input can feed.
template <unsigned Block>
unsigned grid_for(std::uint64_t n, const DeviceShape& shape) {
  return std::min(useful_blocks(n, Block * items_per_thread),
                  resident_blocks(recorded_single_pass<Block, NoTrace>, Block, 0, shape));
}

// One call's launch, with the programmatic-dependency attribute:
//   recorded_single_pass<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <class Trace>
void enqueue(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const unsigned grid = grid_for<Block>(c.n, c.shape);
    name_buffer(c.scratch, grid * sizeof(float), "partials");  // for race reports
    launch_ex("recorded_single_pass", recorded_single_pass<Block, Trace>, dim3(grid), dim3(Block),
              0, c.stream, LaunchAttributes{.programmatic_dependency = true}, c.in, c.out, c.n,
              static_cast<float*>(c.scratch));
  });
}

// One recording per set of arguments (a graph replays the arguments it recorded).
using Arguments = std::tuple<const float*, float*, std::uint64_t, unsigned, void*, void*>;
struct Recordings {
  std::mutex mutex;
  std::map<Arguments, LaunchGraph> graphs;
};
Recordings& recordings() {
  static Recordings r;
  return r;
}

// The lesson's own: each call a replay of its arguments' recording.
void reduce(const ReduceCall& c) {
  const auto launches = [&] { enqueue<NoTrace>(c); };
  // Inside a recording already (the harness records its timed calls into one graph): CUDA makes
  // no graph inside another's capture, so this call's launch joins the caller's recording.
  if (is_recording(c.stream)) return launches();
  Recordings& r = recordings();
  const std::lock_guard lock(r.mutex);
  LaunchGraph& graph = r.graphs[{c.in, c.out, c.n, c.block, c.scratch, c.stream}];
  try {
    replay_recorded(graph, c.stream, launches);
  } catch (...) {
    abandon_recording(c.stream);  // a launch that threw mid-recording must not leave it open
    throw;
  }
  if (is_recording(c.stream)) {  // a recording begun and never ended
    abandon_recording(c.stream);
    throw std::logic_error("replay_recorded began a recording and never ended it");
  }
}

std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return std::size_t{grid_for<Block>(n, shape)} * sizeof(float);
  });
}

// A thread's run over a grid of g blocks (quads, each two levels, head and tail), its block's tree,
// and the last block's run and tree over the g partials (lesson 12's plan.cu).
std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g = grid_for<Block>(n, shape);
    return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
  });
}

}  // namespace
RL_NAMESPACE_END

// The empty kernel, once, for the report's table (probe.h).
template <>
void rl::launches::launch_probe_kernel<rl::this_backend>(void* stream, bool programmatic) {
  launch_ex("launch_probe", launch_probe, dim3(1), dim3(32), 0, stream,
            LaunchAttributes{.programmatic_dependency = programmatic});
}

template <>
rl::Plans rl::lesson_plans<15, rl::this_backend>() {
  constexpr std::string_view slug = "launch_cost",
                             title = "Launch cost: the single pass recorded into a graph";
  const auto plan = [&](std::string_view variant, ReduceFunction reduce, ReduceFunction traced,
                        LaunchWay way) {
    Plan p = lesson_plan(15, slug, title, reduce, traced);
    p.variant = variant;
    p.preferred_block = 1024;
    p.scratch_bytes = scratch_bytes;
    p.depth = depth;
    p.way = way;
    return p;
  };
  // Traced, a call is launched as it comes: the trace recorder synchronizes before each launch to
  // learn where its events begin, which no recording allows.
  Plan own = plan("", reduce, enqueue<RecordTrace>, {LaunchPath::graph, true});
  own.replays = true;  // graded: a second call with the same arguments launches nothing itself
  return {own,
          plan("on_stream", enqueue<NoTrace>, enqueue<RecordTrace>, {LaunchPath::stream, true})};
}

#include "lessons/12_single_pass/questions.h"

#include <cstdint>
#include <string>

namespace rl::ticket {
namespace {

constexpr unsigned block = 1024;  // the plan's own block size (preferred_block)

// The blocks of the single launch at 2^log2_n, as plan.cu sizes them (grid_for): read through the
// plan's scratch, which holds the blocks' partials, one float a block. The simulator's plan, on the
// shape the simulator gives itself (the H100's: 132 SMs of 2048 threads); the H100's occupancy API
// gives this kernel the same 2 blocks of 1024 an SM (README.md), so the grids are the H100's.
std::uint64_t grid(int log2_n) {
  const Plans plans = lesson_plans<12, Backend::sim>();
  return plans.front().scratch_bytes(std::uint64_t{1} << log2_n, block, DeviceShape{}) /
         sizeof(float);
}

// With atomicAdd(&blocks_finished, 1) for the ticket the counter never wraps: a launch of `count`
// blocks hands out the tickets from, from + 1, ..., from + count - 1, wherever the launch before it
// left the counter, and the block handed gridDim.x - 1 takes itself for the last. The first launch
// of a process finds the counter at 0 (a zero-initialised __device__ variable).

// Which arrival of such a launch is handed `ticket` (1: the first block to take one); 0: none.
std::uint64_t arrival_of(std::uint64_t ticket, std::uint64_t from, std::uint64_t count) {
  return from <= ticket && ticket < from + count ? ticket - from + 1 : 0;
}

// The second of two launches at 2^log2_n: it starts where the first left the counter, at G.
std::string first_ticket_second_launch(int log2_n) { return std::to_string(grid(log2_n)); }

// The blocks of that second launch handed G - 1 (one ticket each, so one block or none).
std::string finishers_second_launch(int log2_n) {
  const std::uint64_t g = grid(log2_n);
  return arrival_of(g - 1, g, g) != 0 ? "1" : "0";
}

// A launch at 2^then after one at 2^first: which of its arrivals is handed its own G - 1.
std::string arrivals_to_finish(int first, int then) {
  const std::uint64_t g = grid(then);
  return std::to_string(arrival_of(g - 1, grid(first), g));
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  e.questions.push_back({"first_ticket_second_launch_2p20",
                         "atomicAdd never wraps: what does the counter hold when the first launch "
                         "ends, and how many blocks does that launch have at this size "
                         "(plan.cu's grid_for)?",
                         [] { return first_ticket_second_launch(20); },
                         {}});
  e.questions.push_back({"finishers_second_launch_2p20",
                         "List the tickets the second launch hands out, from where the first left "
                         "the counter: is gridDim.x - 1 among them?",
                         [] { return finishers_second_launch(20); },
                         {}});
  e.questions.push_back({"arrivals_to_finish_2p20_then_2p24",
                         "The second launch starts counting where the first stopped, and its grid "
                         "is larger: how many tickets does it hand out up to the one equal to its "
                         "gridDim.x - 1? Work out both grids first.",
                         [] { return arrivals_to_finish(20, 24); },
                         {}});
  return e;
}

}  // namespace rl::ticket

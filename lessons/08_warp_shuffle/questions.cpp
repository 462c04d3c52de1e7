#include "lessons/08_warp_shuffle/questions.h"

#include <map>
#include <string>

#include "common/host/cli.h"
#include "common/host/idea.h"
#include "common/host/results.h"
#include "common/trace/trace_loader.h"

namespace rl::shuffle_lanes {
namespace {

// One block of the course's kernel (the solution, whatever this build compiled), as its committed
// trace at n = block shows it level by level.
IdeaFigures one_block(unsigned block) {
  return committed_trace_figures("traces/questions/08_warp_shuffle.b" + std::to_string(block) +
                                 ".n" + std::to_string(block) + ".sim.json");
}

// The levels of additions through shared memory and through shuffles, after the first level (the
// loads, and the store of each thread's sum).
std::string levels(unsigned block) {
  int shared = 0, shuffles = 0;
  for (const IdeaLevel& l : one_block(block).levels) {
    if (l.level == 0 || l.adds == 0) continue;
    ++(l.shuffles > 0 ? shuffles : shared);
  }
  return std::to_string(shared) + ", " + std::to_string(shuffles);
}

// The course's kernel with one warp over 32 inputs, traced: lane k starts the shuffle loop with
// in[k] alone, so the inputs a lane's final value is made of are the lanes' starting values.
const char* const warp_trace = "traces/questions/08_warp_shuffle.b32.n32.sim.json";

// Lane `lane`'s value after the loop: how many times it holds each input (by index), from the
// reduction DAG of the committed trace (an addition's node counts its operands' inputs, twice
// where a lane added its own value to itself).
std::map<int, long> made_of(int lane) {
  const std::string path = committed_asset_path(warp_trace);
  Trace t;
  try {
    t = load_trace(path);
  } catch (const std::exception& e) {
    throw UsageError(std::string("cannot read the course's committed trace: ") + e.what());
  }
  int last = -1;  // the lane's last shuffle of block 0
  for (std::size_t i = 0; i < t.events.size(); ++i)
    if (t.events[i].kind == EventKind::shuffle && t.events[i].launch == 0 &&
        t.events[i].block == 0 && t.events[i].thread == lane)
      last = static_cast<int>(i);
  if (last < 0) throw UsageError(path + " has no shuffle of lane " + std::to_string(lane));
  std::map<int, std::map<int, long>> memo;  // node -> its inputs, counted
  const auto inputs = [&](const auto& self, int node) -> const std::map<int, long>& {
    if (const auto it = memo.find(node); it != memo.end()) return it->second;
    std::map<int, long> c;
    const DagNode& d = t.dag.nodes[static_cast<std::size_t>(node)];
    if (d.is_leaf()) {
      c[node] = 1;  // leaves are the inputs, in input order
    } else {
      for (const int operand : d.operand_nodes)
        if (operand >= 0)
          for (const auto& [input, times] : self(self, operand)) c[input] += times;
    }
    return memo[node] = c;
  };
  return inputs(inputs, t.dag.event_nodes[static_cast<std::size_t>(last)]);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const unsigned b : {64u, 256u, 1024u})
    e.questions.push_back({"levels_b" + std::to_string(b),
                           "Count the tree's levels while more than 64 values are left, then warp "
                           "0's first add, which reads both of its values from shared memory; "
                           "then the shuffle loop's passes, whose count does not depend on the "
                           "block.",
                           [b] { return levels(b); },
                           {}});
  for (const int lane : {1, 16})
    e.questions.push_back({"lanes_in_lane" + std::to_string(lane),
                           "Draw it: at each offset lane i takes lane i + offset's value, or its "
                           "own where that is past lane 31. Which lanes can a value ever move "
                           "down from, and does every one of them reach this lane?",
                           [lane] { return std::to_string(made_of(lane).size()); },
                           {}});
  e.questions.push_back({"lane31_times",
                         "Lane 31 never has a lane above it: at each of the loop's passes, what "
                         "does it add to its own value?",
                         [] { return std::to_string(made_of(31)[31]); },
                         {}});
  return e;
}

}  // namespace rl::shuffle_lanes

#pragma once
// Steps: what the viewer plays, one at a time. A step is one line of the kernel run the k-th time
// by every thread between two of its barriers: step (launch, phase, line, k) holds each thread's
// write events (a load, a store, an addition, a shuffle, an atomic) made by source line `line` for
// the k-th time since it passed `phase` barriers in that launch (its block's __syncthreads, and the
// __syncwarp calls whose mask holds its lane). So the rows of a step figure are the kernel's own,
// as in Harris's slides: the loads, then one row per level of the loop, then the store; a thread
// that has stopped working simply has no event in a later step, and a thread whose grid-stride loop
// ran once more than its neighbours' does not push its later steps out of line with theirs. Steps
// of a phase are in the order the trace first reaches them. Traces without barrier events (the
// GPU's) are one phase per launch, and the lessons' loops still line up (tested).
//
// The data-flow levels of trace_model.h stay what they are (the depth of each value in the tree);
// steps are the order of the program. Pure: no ImGui, unit-tested.
#include <cstdint>
#include <vector>

#include "common/trace/trace_model.h"

namespace rl::viewer {

struct Step {
  int launch = 0;
  int phase = 0;
  int line = 0;
  int k = 0;                  // the line's k-th run by each thread in this phase, from 0
  std::vector<int> events;    // its write events, in event order
  std::vector<int> barriers;  // the barrier events that close it (in some block)
  // distinct source lines of its events, then of its barriers, first seen first
  std::vector<int> lines;

  // Facts over every block of the launch.
  int active_threads = 0;   // distinct (block, thread) with an event here
  int active_warps = 0;     // warps with at least one of them
  int divergent_warps = 0;  // of those, warps where some lanes work and some do not
  int additions = 0;        // combine, shuffle and atomic events
  // of those, adding two values (not a constant and a value: a running sum's start)
  int tree_additions = 0;
  int shuffles = 0;
  // warp-wide accesses to shared memory (one per warp, instruction and operand)
  int shared_accesses = 0;
  int conflicted_accesses = 0;  // of those, with two or more addresses in one bank
  int worst_conflict = 0;       // n-way of the worst; 0 when the step touches no shared memory
  // Of those, the loads (an operand read) and the stores (a destination written), and the passes
  // each kind needs: an access whose lanes fall n-way in one bank needs n (what the hardware
  // counts as wavefronts).
  int shared_loads = 0, shared_stores = 0;
  int load_passes = 0, store_passes = 0;
  // (block, threads active in it), ascending by block: what the overview strip draws.
  std::vector<std::pair<int, int>> block_active;
};

struct StepIndex {
  std::vector<Step> steps;        // by (launch, phase, k)
  std::vector<int> event_step;    // per event: its step; a barrier the step it closes; -1 for none
  std::vector<int> launch_first;  // per launch: its first step, -1 when it has none
  std::vector<int> launch_count;  // per launch: how many steps
  // The events of each block of each launch, in event order (barriers included):
  // events of (launch l, block b) are block_events[block_start[l][b] .. block_start[l][b + 1]).
  std::vector<std::vector<std::int64_t>> block_start;
  std::vector<int> block_events;

  int count() const { return static_cast<int>(steps.size()); }
  // The first step in which a thread adds two values (the first picture worth a look; a sum that
  // starts from 0 is not yet one); else the first with any addition; 0 when none adds.
  int first_with_additions() const;
  // The source lines to highlight at step s (clamped; none without steps).
  const std::vector<int>& lines(int s) const;
  // Events of one block of one launch (empty when out of range).
  std::pair<const int*, const int*> events_of(int launch, int block) const;
};

StepIndex index_steps(const Trace& t);

}  // namespace rl::viewer

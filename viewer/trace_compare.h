#pragma once
// Two traces side by side, compared as a teacher would: are they of the same input (n, block,
// seed, distribution, and the input values themselves)? Where do they first differ: the first
// write (in the left trace's order) whose value the other trace does not repeat at the same place
// (the same launch, block and location, the same occurrence of a write there). Pure: no ImGui,
// unit-tested.
#include <string>

#include "common/trace/trace_model.h"

namespace rl::viewer {

struct FirstDifference {
  bool found = false;
  int event[2] = {-1, -1};  // in each trace; -1 where that trace has no such write
  double value[2] = {0.0, 0.0};
  int launch = 0, block = 0, thread = 0;
  std::string location;  // "shared[3]"
};

struct TraceComparison {
  bool same_input = true;
  std::string input_differences;  // "n 64 and 512, block 32 and 256" (empty when the same input)
  FirstDifference first;          // looked for only on the same input
};

TraceComparison compare_traces(const Trace& left, const Trace& right);

}  // namespace rl::viewer

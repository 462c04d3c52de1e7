#pragma once
// Trace DAG -> positions. Leaves (the input) sit on row 0 in input order, one unit apart; each
// (launch, level) of the trace (levels as the trace library derives them, trace_model.h) is a frame
// whose nodes sit on the rows above the previous frame's, launch by launch, so a second launch
// lands above the first. A node stays in the column of the value it updates
// (the tree's usual picture), per-block subtrees side by side; nodes that would overlap in a row
// are pushed apart. Pure function of the trace: no ImGui, unit-tested.
#include <vector>

#include "common/trace/trace_model.h"

namespace rl::viewer {

struct LaidNode {
  int node = 0;   // DagNode id (the index of this entry too)
  float x = 0;    // column, in units of one leaf spacing
  float y = 0;    // row, 0 = leaves; grows upwards
  int frame = -1; // -1 for leaves (always shown)
};

struct LaidEdge {
  int from = 0;  // parent node id
  int to = 0;    // child node id
  bool shuffle = false;  // a lane-to-lane shuffle (drawn as an arrow)
  bool carries = false;  // from the dst's previous version (a vertical "+=")
};

struct Frame {
  int launch = 0;
  int level = 0;
  int first_row = 1;
  int rows = 1;
  std::vector<int> events;  // its events (barriers included), indexes into Trace::events in event order
  std::vector<int> lines;   // the distinct source lines of those events, first seen first: what the source panel highlights
};

struct TreeLayout {
  std::vector<LaidNode> nodes;  // by node id
  std::vector<LaidEdge> edges;  // ordered by the child's frame
  std::vector<Frame> frames;    // in (launch, level) order
  float width = 1;              // columns: x spans [0, width)
  int rows = 1;                 // y spans [0, rows)
};

TreeLayout layout_tree(const Trace& t);

// The source lines to highlight at `frame` (clamped; none when there are no frames): the lines of
// that frame's own events, the work itself (the addition, the shuffle, the store) and its barriers.
const std::vector<int>& frame_lines(const TreeLayout& layout, int frame);

}  // namespace rl::viewer

#pragma once
// Trace DAG -> positions. Leaves (the input) sit on row 0 in input order, one unit apart; each
// (launch, step) of the trace is a frame whose nodes sit on the rows above the previous frame's,
// so a second launch lands above the first. A node stays in the column of the value it updates
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
  int step = 0;
  int first_row = 1;
  int rows = 1;
};

struct TreeLayout {
  std::vector<LaidNode> nodes;  // by node id
  std::vector<LaidEdge> edges;  // ordered by the child's frame
  std::vector<Frame> frames;    // in (launch, step) order
  float width = 1;              // columns: x spans [0, width)
  int rows = 1;                 // y spans [0, rows)
};

TreeLayout layout_tree(const Trace& t);

}  // namespace rl::viewer

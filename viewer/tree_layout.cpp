#include "viewer/tree_layout.h"

#include <algorithm>
#include <map>

namespace rl::viewer {

TreeLayout layout_tree(const Trace& t) {
  TreeLayout out;
  const Dag& dag = t.dag;
  out.nodes.resize(dag.nodes.size());

  // Frames: the distinct (launch, level) pairs of the events, in order; every node's event is
  // one of them, and barriers join the frame of the level they close.
  std::map<std::pair<int, int>, int> frame_of;
  for (std::size_t i = 0; i < t.events.size(); ++i) frame_of.emplace(std::pair{t.events[i].launch, t.level_of(i)}, 0);
  for (auto& [key, index] : frame_of) {
    index = static_cast<int>(out.frames.size());
    out.frames.push_back({key.first, key.second, 0, 1, {}, {}});
  }
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    Frame& f = out.frames[static_cast<std::size_t>(frame_of[{t.events[i].launch, t.level_of(i)}])];
    f.events.push_back(static_cast<int>(i));
    const int line = t.events[i].line;
    if (line > 0 && std::find(f.lines.begin(), f.lines.end(), line) == f.lines.end()) f.lines.push_back(line);
  }

  // Rows within a frame: a node sits one row above a parent made in the same frame (a load then
  // the store of what it loaded, moves that keep their level).
  std::vector<int> sub(dag.nodes.size(), 0);
  std::vector<int> frame(dag.nodes.size(), -1);
  for (const auto& n : dag.nodes) {
    if (n.is_leaf()) continue;
    const int f = frame_of[{n.launch, n.level}];
    frame[static_cast<std::size_t>(n.id)] = f;
    int s = 0;
    for (int p : n.parents()) {
      if (frame[static_cast<std::size_t>(p)] == f) s = std::max(s, sub[static_cast<std::size_t>(p)] + 1);
    }
    sub[static_cast<std::size_t>(n.id)] = s;
    out.frames[static_cast<std::size_t>(f)].rows = std::max(out.frames[static_cast<std::size_t>(f)].rows, s + 1);
  }
  int row = 1;
  for (auto& f : out.frames) {
    f.first_row = row;
    row += f.rows;
  }
  out.rows = row;

  // Preferred columns: leaves in input order; a node takes its first parent's column (operand a's
  // version: the dst's previous value for a combine, the value read for a load or store); a node with no parents
  // takes its location's column, spread over the leaves' width by its launch-wide thread index.
  const float leaves = static_cast<float>(std::max(1, dag.leaf_count));
  std::vector<float> x(dag.nodes.size(), 0.f);
  for (const auto& n : dag.nodes) {
    float px;
    if (n.is_leaf()) {
      px = static_cast<float>(n.id);
    } else if (n.parent_count > 0) {
      px = x[static_cast<std::size_t>(n.parents()[0])];
    } else {
      const Launch& l = t.launches[static_cast<std::size_t>(n.launch)];
      const double slots = static_cast<double>(l.grid) * l.block;
      const double slot = static_cast<double>(n.block) * l.block + static_cast<double>(std::max<std::int64_t>(0, n.loc.index));
      px = static_cast<float>(slot / std::max(1.0, slots) * leaves);
    }
    x[static_cast<std::size_t>(n.id)] = px;
  }

  // No overlap within a row: sweep each row left to right, at least one unit apart.
  std::map<int, std::vector<int>> by_row;
  for (const auto& n : dag.nodes) {
    const int r = n.is_leaf() ? 0
                              : out.frames[static_cast<std::size_t>(frame[static_cast<std::size_t>(n.id)])].first_row +
                                    sub[static_cast<std::size_t>(n.id)];
    by_row[r].push_back(n.id);
    out.nodes[static_cast<std::size_t>(n.id)] = {n.id, 0.f, static_cast<float>(r), frame[static_cast<std::size_t>(n.id)]};
  }
  float width = leaves;
  for (auto& [r, ids] : by_row) {
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return x[static_cast<std::size_t>(a)] < x[static_cast<std::size_t>(b)]; });
    float last = -1e30f;
    for (int id : ids) {
      const float px = std::max(x[static_cast<std::size_t>(id)], last + 1.f);
      out.nodes[static_cast<std::size_t>(id)].x = px;
      last = px;
      width = std::max(width, px + 1.f);
    }
  }
  out.width = width;

  for (const auto& n : dag.nodes) {
    const auto ps = n.parents();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      LaidEdge e;
      e.from = ps[i];
      e.to = n.id;
      const EventKind k = t.events[static_cast<std::size_t>(n.event)].kind;
      // An addition whose first parent is its dst's previous version carries it on (a "+=").
      e.carries = adds(k) && i == 0 && dag.nodes[static_cast<std::size_t>(ps[0])].loc == n.loc;
      e.shuffle = k == EventKind::shuffle && !e.carries;
      out.edges.push_back(e);
    }
  }
  return out;
}

const std::vector<int>& frame_lines(const TreeLayout& layout, int frame) {
  static const std::vector<int> none;
  if (layout.frames.empty()) return none;
  return layout.frames[static_cast<std::size_t>(std::clamp(frame, 0, static_cast<int>(layout.frames.size()) - 1))].lines;
}

}  // namespace rl::viewer

#include "common/trace/trace_model.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace rl {

bool same_value(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

int Trace::input_buffer() const {
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i] == "input") return static_cast<int>(i);
  }
  return -1;
}

std::string Trace::block_label() const {
  std::vector<int> launched;  // the launches' sizes, in order, each once
  for (const Launch& l : launches)
    if (std::find(launched.begin(), launched.end(), l.block) == launched.end())
      launched.push_back(l.block);
  std::string label = "block " + std::to_string(block);
  if (launched.empty() || (launched.size() == 1 && launched[0] == block)) return label;
  label += " (launched ";
  for (std::size_t i = 0; i < launched.size(); ++i)
    label += (i ? ", " : "") + std::to_string(launched[i]);
  return label + ")";
}

std::string Trace::location_name(const Location& l) const {
  switch (l.space.kind) {
    case SpaceKind::none:
      return "-";
    case SpaceKind::constant:
      return "const";
    // Appended, not "literal" + std::string: GCC 12 warns (-Wrestrict) falsely on the latter.
    case SpaceKind::event: {
      std::string s = "event ";
      s += std::to_string(l.index);
      return s;
    }
    case SpaceKind::shared: {
      std::string s = "shared[";
      s += std::to_string(l.index);
      s += ']';
      return s;
    }
    case SpaceKind::reg: {
      std::string s = "r";
      s += std::to_string(l.index);
      return s;
    }
    case SpaceKind::buffer: {
      const bool known =
          l.space.buffer >= 0 && static_cast<std::size_t>(l.space.buffer) < buffers.size();
      return (known ? buffers[static_cast<std::size_t>(l.space.buffer)] : std::string("?")) + "[" +
             std::to_string(l.index) + "]";
    }
  }
  return "?";
}

namespace {

// A location as a map key: shared and register locations belong to one block of one launch,
// global buffers to the whole trace.
struct Key {
  int launch;
  int block;
  int space;  // SpaceKind, or 16 + buffer id
  std::int64_t index;
  friend bool operator==(const Key&, const Key&) = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const noexcept {
    std::uint64_t h = static_cast<std::uint64_t>(k.index) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.launch)) << 40) ^
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.block)) << 8) ^
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.space));
    h ^= h >> 29;
    return static_cast<std::size_t>(h * 0xBF58476D1CE4E5B9ull);
  }
};

Key key_of(const Event& e, const Location& l) {
  if (l.space.kind == SpaceKind::buffer) return {-1, -1, 16 + l.space.buffer, l.index};
  return {e.launch, e.block, static_cast<int>(l.space.kind), l.index};
}

}  // namespace

Dag build_dag(const Trace& t) {
  Dag dag;
  const int in_buf = t.input_buffer();
  dag.leaf_count = static_cast<int>(t.input.size());
  dag.nodes.reserve(t.input.size() + t.events.size());
  dag.event_nodes.assign(t.events.size(), -1);
  dag.event_levels.assign(t.events.size(), 0);
  // The current version of every location written so far (and of the input leaves).
  std::unordered_map<Key, int, KeyHash> current;
  current.reserve(t.input.size() + t.events.size());
  for (std::size_t i = 0; i < t.input.size(); ++i) {
    DagNode leaf;
    leaf.id = static_cast<int>(i);
    leaf.loc = {{SpaceKind::buffer, in_buf}, static_cast<std::int64_t>(i)};
    leaf.value = t.input[i];
    dag.nodes.push_back(leaf);
    if (in_buf >= 0) current[{-1, -1, 16 + in_buf, static_cast<std::int64_t>(i)}] = leaf.id;
  }

  int output_node = -1;
  int last_global_write = -1;
  int out_buf = -1;
  for (std::size_t i = 0; i < t.buffers.size(); ++i) {
    if (t.buffers[i] == "output") out_buf = static_cast<int>(i);
  }

  // One pass in event order: the file's order is the order the backend recorded, which for a
  // kernel without races is an order in which every write comes before the reads that see it.
  for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
    const Event& e = t.events[ei];
    if (is_barrier(e.kind) || e.dst.space.kind == SpaceKind::none) continue;

    DagNode node;
    node.id = static_cast<int>(dag.nodes.size());
    node.launch = e.launch;
    node.block = e.block;
    node.thread = e.thread;
    node.loc = e.dst;
    node.value = e.value;
    node.event = static_cast<int>(ei);

    int versions = 0;
    int deepest = 0;
    const Operand* ops[2] = {&e.a, &e.b};
    for (int k = 0; k < 2; ++k) {
      const Operand& op = *ops[k];
      int version = -1;
      if (op.loc.space.kind == SpaceKind::event) {
        // The loader checked that it is an earlier, non-barrier event, so it made a node already.
        version = dag.event_nodes[static_cast<std::size_t>(op.loc.index)];
      } else if (op.memory()) {
        auto it = current.find(key_of(e, op.loc));
        version = it == current.end() ? -1 : it->second;
      }
      node.operand_nodes[static_cast<std::size_t>(k)] = version;
      if (version >= 0) {
        const DagNode& v = dag.nodes[static_cast<std::size_t>(version)];
        ++versions;
        deepest = std::max(deepest, v.level);
        if (std::find(node.parent_ids.begin(), node.parent_ids.begin() + node.parent_count,
                      version) == node.parent_ids.begin() + node.parent_count) {
          node.parent_ids[static_cast<std::size_t>(node.parent_count++)] = version;
        }
      }
      // A read of memory nothing wrote, or a value other than the version's: unexplained.
      const bool unexplained =
          (op.memory() && version < 0) ||
          (version >= 0 &&
           !same_value(op.value, dag.nodes[static_cast<std::size_t>(version)].value));
      if (unexplained) {
        node.unexplained = static_cast<std::uint8_t>(node.unexplained | (1u << k));
        dag.unexplained.push_back({static_cast<int>(ei), k, version, op.value,
                                   version >= 0 ? dag.nodes[static_cast<std::size_t>(version)].value
                                                : std::numeric_limits<double>::quiet_NaN()});
      }
    }
    // FORMAT.md's rules: an addition of two versions is one level above the deeper; an addition of
    // a constant or a move keeps its version's level; no version at all is level 0.
    node.level = adds(e.kind) && versions == 2 ? deepest + 1 : deepest;
    dag.max_level = std::max(dag.max_level, node.level);

    current[key_of(e, e.dst)] = node.id;
    if (e.dst.space.kind == SpaceKind::buffer) {
      last_global_write = node.id;
      if (e.dst.space.buffer == out_buf && e.dst.index == 0) output_node = node.id;
    }
    dag.event_nodes[ei] = node.id;
    dag.event_levels[ei] = node.level;
    dag.nodes.push_back(node);
  }

  // Barriers take the level their block reached before them (the level they close), or their
  // launch's lowest level when the block had done nothing yet.
  std::vector<int> lowest(t.launches.size(), INT_MAX);
  for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
    const Event& e = t.events[ei];
    if (!is_barrier(e.kind) && static_cast<std::size_t>(e.launch) < lowest.size()) {
      lowest[static_cast<std::size_t>(e.launch)] =
          std::min(lowest[static_cast<std::size_t>(e.launch)], dag.event_levels[ei]);
    }
  }
  std::map<std::pair<int, int>, int> reached;  // (launch, block) -> highest level so far
  for (std::size_t ei = 0; ei < t.events.size(); ++ei) {
    const Event& e = t.events[ei];
    if (!is_barrier(e.kind)) {
      int& r = reached.try_emplace({e.launch, e.block}, 0).first->second;
      r = std::max(r, dag.event_levels[ei]);
      continue;
    }
    auto it = reached.find({e.launch, e.block});
    if (it != reached.end()) {
      dag.event_levels[ei] = it->second;
    } else {
      const int low = static_cast<std::size_t>(e.launch) < lowest.size()
                          ? lowest[static_cast<std::size_t>(e.launch)]
                          : INT_MAX;
      dag.event_levels[ei] = low == INT_MAX ? 0 : low;
    }
  }

  if (output_node >= 0) {
    dag.final_node = output_node;
  } else if (last_global_write >= 0) {
    dag.final_node = last_global_write;
  } else if (!dag.nodes.empty()) {
    dag.final_node = static_cast<int>(dag.nodes.size()) - 1;
  }
  return dag;
}

}  // namespace rl

#include "common/trace/trace_model.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace rl {

std::string_view to_string(EventKind k) {
  switch (k) {
    case EventKind::load: return "load";
    case EventKind::combine: return "combine";
    case EventKind::shuffle: return "shuffle";
    case EventKind::store: return "store";
    case EventKind::atomic: return "atomic";
    case EventKind::barrier: return "barrier";
  }
  return "?";
}

int Trace::input_buffer() const {
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i] == "input") return static_cast<int>(i);
  }
  return -1;
}

std::string Trace::location_name(const Location& l) const {
  switch (l.space.kind) {
    case SpaceKind::none: return "-";
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
      const bool known = l.space.buffer >= 0 && static_cast<std::size_t>(l.space.buffer) < buffers.size();
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

// What a (launch, step) group did to one location: the version before the group touched it and
// the last thread that wrote it, so that a read by another thread sees the value from before the
// step (events of one step may be recorded in any order across threads) while a thread's own
// earlier write in the same step is seen (program order within a thread).
struct GroupWrite {
  int before;
  int block;
  int thread;
};

}  // namespace

Dag build_dag(const Trace& t) {
  Dag dag;
  const int in_buf = t.input_buffer();
  dag.leaf_count = static_cast<int>(t.input.size());
  dag.nodes.reserve(t.input.size() + t.events.size());
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

  std::vector<int> order(t.events.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Event& x = t.events[static_cast<std::size_t>(a)];
    const Event& y = t.events[static_cast<std::size_t>(b)];
    return x.launch != y.launch ? x.launch < y.launch : x.step < y.step;
  });

  std::unordered_map<Key, GroupWrite, KeyHash> group;
  int last_global_write = -1;
  int output_node = -1;
  int out_buf = -1;
  for (std::size_t i = 0; i < t.buffers.size(); ++i) {
    if (t.buffers[i] == "output") out_buf = static_cast<int>(i);
  }

  for (std::size_t oi = 0; oi < order.size(); ++oi) {
    const int ei = order[oi];
    const Event& e = t.events[static_cast<std::size_t>(ei)];
    if (oi > 0) {
      const Event& prev = t.events[static_cast<std::size_t>(order[oi - 1])];
      if (prev.launch != e.launch || prev.step != e.step) group.clear();
    }
    if (e.kind == EventKind::barrier || e.dst.space.kind == SpaceKind::none) continue;

    auto version_of = [&](const Key& k) {
      auto it = current.find(k);
      return it == current.end() ? -1 : it->second;
    };
    auto read = [&](const Key& k) {
      auto g = group.find(k);
      if (g != group.end() && (g->second.block != e.block || g->second.thread != e.thread)) return g->second.before;
      return version_of(k);
    };

    DagNode node;
    node.id = static_cast<int>(dag.nodes.size());
    node.step = e.step;
    node.launch = e.launch;
    node.block = e.block;
    node.thread = e.thread;
    node.loc = e.dst;
    node.value = e.value;
    node.event = ei;
    const Key dk = key_of(e, e.dst);
    const bool accumulates =
        e.kind == EventKind::combine || e.kind == EventKind::shuffle || e.kind == EventKind::atomic;
    if (accumulates) {
      const int p = version_of(dk);
      if (p >= 0) node.parent_ids[static_cast<std::size_t>(node.parent_count++)] = p;
    }
    if (e.src.space.kind != SpaceKind::none) {
      const int s = read(key_of(e, e.src));
      if (s >= 0 && (node.parent_count == 0 || node.parent_ids[0] != s)) {
        node.parent_ids[static_cast<std::size_t>(node.parent_count++)] = s;
      }
    }
    auto g = group.find(dk);
    if (g == group.end()) {
      group.emplace(dk, GroupWrite{version_of(dk), e.block, e.thread});
    } else {
      g->second.block = e.block;
      g->second.thread = e.thread;
    }
    current[dk] = node.id;
    if (e.dst.space.kind == SpaceKind::buffer) {
      last_global_write = node.id;
      if (e.dst.space.buffer == out_buf && e.dst.index == 0) output_node = node.id;
    }
    dag.nodes.push_back(node);
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

#include "viewer/block_figure.h"

#include <map>
#include <set>
#include <tuple>

#include "common/trace/trace_facts.h"

namespace rl::viewer {
namespace {

struct Source {
  bool in_array = false;
  ArrayKind array = ArrayKind::shared;
  std::int64_t index = -1;
};

// Where an operand's value sits in the figure: a shared slot, or the register of the lane that
// made it (an `event` operand names the event that wrote the register).
Source source_of(const Trace& t, const Operand& op) {
  if (op.loc.space.kind == SpaceKind::shared) return {true, ArrayKind::shared, op.loc.index};
  if (op.loc.space.kind != SpaceKind::event) return {};
  const Event& p = t.events[static_cast<std::size_t>(op.loc.index)];
  if (p.dst.space.kind == SpaceKind::reg) return {true, ArrayKind::reg, p.dst.index};
  if (p.dst.space.kind == SpaceKind::shared) return {true, ArrayKind::shared, p.dst.index};
  return {};
}

const char* verb_of(EventKind k, bool one) {
  switch (k) {
    case EventKind::load:
      return one ? "loads" : "load";
    case EventKind::store:
      return one ? "stores" : "store";
    case EventKind::combine:
      return one ? "adds" : "add";
    case EventKind::shuffle:
      return one ? "adds through a shuffle" : "add through shuffles";
    case EventKind::atomic:
      return one ? "adds atomically" : "add atomically";
    default:
      return "";
  }
}

// "16 threads add": the kind most of the row's events are.
std::string action_of(const Trace& t, const std::vector<int>& events, int threads) {
  int count[8] = {};
  for (int i : events) ++count[static_cast<int>(t.events[static_cast<std::size_t>(i)].kind)];
  int best = 0;
  for (int k = 1; k < 8; ++k)
    if (count[k] > count[best]) best = k;
  const auto kind = static_cast<EventKind>(best);
  return std::to_string(threads) + (threads == 1 ? " thread " : " threads ") +
         verb_of(kind, threads == 1);
}

// "input[32..63]", the global elements a row's events read, per buffer.
std::string reads_of(const Trace& t, const std::vector<int>& events) {
  std::map<int, std::pair<std::int64_t, std::int64_t>> range;
  for (int i : events) {
    const Event& e = t.events[static_cast<std::size_t>(i)];
    for (const Operand* op : {&e.a, &e.b}) {
      if (op->loc.space.kind != SpaceKind::buffer) continue;
      auto [it, fresh] = range.try_emplace(op->loc.space.buffer, op->loc.index, op->loc.index);
      if (!fresh) {
        it->second.first = std::min(it->second.first, op->loc.index);
        it->second.second = std::max(it->second.second, op->loc.index);
      }
    }
  }
  std::string s;
  for (const auto& [buffer, r] : range) {
    if (!s.empty()) s += ", ";
    s += t.buffers[static_cast<std::size_t>(buffer)] + "[" + std::to_string(r.first);
    if (r.second != r.first) s += ".." + std::to_string(r.second);
    s += "]";
  }
  return s;
}

}  // namespace

std::int64_t figure_columns_total(const Trace& t, const StepIndex& idx, int launch, int block) {
  std::int64_t shared = 0, regs = 0;
  const auto [first, last] = idx.events_of(launch, block);
  for (const int* p = first; p != last; ++p) {
    const Event& e = t.events[static_cast<std::size_t>(*p)];
    if (e.dst.space.kind == SpaceKind::shared) shared = std::max(shared, e.dst.index + 1);
    if (e.dst.space.kind == SpaceKind::reg) regs = std::max(regs, e.dst.index + 1);
    for (const Operand* op : {&e.a, &e.b})
      if (op->loc.space.kind == SpaceKind::shared) shared = std::max(shared, op->loc.index + 1);
  }
  return std::max(shared, regs);
}

BlockFigure build_figure(const Trace& t, const StepIndex& idx, int current,
                         const FigureFocus& focus, const FigureMarks& marks) {
  BlockFigure f;
  if (idx.steps.empty()) return f;
  current = std::clamp(current, 0, idx.count() - 1);
  const Step& cur = idx.steps[static_cast<std::size_t>(current)];
  f.launch = cur.launch;
  f.current_step = current;
  const Launch& launch = t.launches[static_cast<std::size_t>(f.launch)];
  f.block = std::clamp(focus.block, 0, launch.grid - 1);
  f.block_dim = launch.block;
  f.active.assign(static_cast<std::size_t>(launch.block), 0);
  const auto [first, last] = idx.events_of(f.launch, f.block);

  // The arrays' extents over the whole launch, so the columns do not change as the steps play.
  for (const int* p = first; p != last; ++p) {
    const Event& e = t.events[static_cast<std::size_t>(*p)];
    if (e.dst.space.kind == SpaceKind::shared)
      f.shared_size = std::max(f.shared_size, e.dst.index + 1);
    if (e.dst.space.kind == SpaceKind::reg)
      f.register_size = std::max(f.register_size, e.dst.index + 1);
    for (const Operand* op : {&e.a, &e.b})
      if (op->loc.space.kind == SpaceKind::shared)
        f.shared_size = std::max(f.shared_size, op->loc.index + 1);
  }
  const std::int64_t total = f.columns_total();
  f.column_count = static_cast<int>(std::clamp<std::int64_t>(focus.columns, 0, total));
  f.first_column = std::clamp<std::int64_t>(focus.first_column, 0,
                                            std::max<std::int64_t>(0, total - f.column_count));

  // This block's stale reads: (read event, operand) -> slot, and the write events.
  std::set<std::pair<int, int>> stale_reads;
  std::set<int> stale_events;
  if (marks.stale) {
    for (const StaleRead& r : *marks.stale) {
      if (r.launch != f.launch || r.block != f.block) continue;
      stale_reads.emplace(r.read_event, r.operand);
      stale_events.insert(r.read_event);
      stale_events.insert(r.write_event);
    }
  }

  // The block's events of this launch's steps up to the current one, grouped by step.
  const int launch_first = idx.launch_first[static_cast<std::size_t>(f.launch)];
  std::vector<std::pair<int, int>> by_step;  // (step, event)
  for (const int* p = first; p != last; ++p) {
    const int s = idx.event_step[static_cast<std::size_t>(*p)];
    if (s < launch_first || s > current || is_barrier(t.events[static_cast<std::size_t>(*p)].kind))
      continue;
    by_step.emplace_back(s, *p);
  }
  std::sort(by_step.begin(), by_step.end());

  std::vector<double> value[2] = {
      std::vector<double>(static_cast<std::size_t>(f.shared_size), 0.0),
      std::vector<double>(static_cast<std::size_t>(f.register_size), 0.0)};
  std::vector<char> held[2] = {std::vector<char>(static_cast<std::size_t>(f.shared_size), 0),
                               std::vector<char>(static_cast<std::size_t>(f.register_size), 0)};
  int last_row[2] = {-1, -1};
  const auto col_of = [&](std::int64_t index) { return index - f.first_column; };
  const auto in_window = [&](std::int64_t index) {
    return index >= f.first_column && index < f.first_column + f.column_count;
  };

  auto make_row = [&](int step, ArrayKind array, const std::vector<int>& events, bool with_outs) {
    FigureRow row;
    row.step = step;
    row.number = step + 1;
    row.array = array;
    row.current = step == current;
    const int a = static_cast<int>(array);
    std::vector<FigureCell> written(static_cast<std::size_t>(f.column_count));
    std::vector<int> mine;  // the events this row draws
    for (int i : events) {
      const Event& e = t.events[static_cast<std::size_t>(i)];
      const bool to_array = (array == ArrayKind::shared && e.dst.space.kind == SpaceKind::shared) ||
                            (array == ArrayKind::reg && e.dst.space.kind == SpaceKind::reg);
      const bool to_global = e.dst.space.kind == SpaceKind::buffer;
      if (!to_array && !(to_global && with_outs)) continue;
      mine.push_back(i);
      const int node = t.dag.event_nodes[static_cast<std::size_t>(i)];
      const std::uint8_t bad =
          node >= 0 ? t.dag.nodes[static_cast<std::size_t>(node)].unexplained : 0;
      const Operand* ops[2] = {&e.a, &e.b};
      if (to_global) {
        const Source src = source_of(t, e.a);
        FigureOut out;
        out.from_array = src.in_array ? src.array : array;
        out.from_index = src.in_array ? src.index : -1;
        out.target = t.location_name(e.dst);
        out.value = e.value;
        out.thread = e.thread;
        out.event = i;
        row.outs.push_back(std::move(out));
        continue;
      }
      for (int k = 0; k < 2; ++k) {
        const Source src = source_of(t, *ops[k]);
        if (!src.in_array) continue;
        FigureArrow arrow;
        arrow.from_array = src.array;
        arrow.from_index = src.index;
        arrow.from_row = last_row[static_cast<int>(src.array)];
        arrow.to_index = e.dst.index;
        arrow.thread = e.thread;
        arrow.event = i;
        arrow.carry = src.array == array && src.index == e.dst.index;
        arrow.shuffle = e.kind == EventKind::shuffle && !arrow.carry;
        arrow.stale = stale_reads.count({i, k}) > 0;
        arrow.unexplained = (bad >> k) & 1;
        row.arrows.push_back(arrow);
      }
      auto& v = value[a];
      const auto slot = static_cast<std::size_t>(e.dst.index);
      if (slot < v.size()) {
        v[slot] = e.value;
        held[a][slot] = 1;
      }
      if (in_window(e.dst.index)) {
        FigureCell& c = written[static_cast<std::size_t>(col_of(e.dst.index))];
        c.written = true;
        c.thread = e.thread;
        c.event = i;
        c.unexplained = c.unexplained || bad != 0;
        c.stale = c.stale || stale_events.count(i) > 0;
        c.differs = c.differs || i == marks.differs_event;
      }
    }
    row.cells.resize(static_cast<std::size_t>(f.column_count));
    for (int c = 0; c < f.column_count; ++c) {
      const auto index = static_cast<std::size_t>(f.first_column + c);
      FigureCell cell = written[static_cast<std::size_t>(c)];
      if (index < value[a].size() && held[a][index]) {
        cell.held = true;
        cell.value = value[a][index];
      }
      row.cells[static_cast<std::size_t>(c)] = cell;
    }
    // A stale read's slot is marked in the row of the read too, and a write's in the row of the
    // write (when that row shows shared memory).
    if (array == ArrayKind::shared && marks.stale) {
      for (const StaleRead& r : *marks.stale) {
        if (r.launch != f.launch || r.block != f.block || !in_window(r.slot)) continue;
        const bool here = std::find(mine.begin(), mine.end(), r.read_event) != mine.end() ||
                          std::find(mine.begin(), mine.end(), r.write_event) != mine.end();
        if (here) row.cells[static_cast<std::size_t>(col_of(r.slot))].stale = true;
      }
    }
    // Bank conflicts: the step's shared accesses of this block, per (warp, line, operand), as
    // steps.h counts them.
    if (array == ArrayKind::shared) {
      std::map<std::tuple<int, int, int>, std::vector<std::int64_t>> accesses;
      for (int i : events) {
        const Event& e = t.events[static_cast<std::size_t>(i)];
        const auto key = [&](int side) { return std::tuple{e.thread / kWarpSize, e.line, side}; };
        if (e.dst.space.kind == SpaceKind::shared) accesses[key(0)].push_back(e.dst.index);
        if (e.a.loc.space.kind == SpaceKind::shared) accesses[key(1)].push_back(e.a.loc.index);
        if (e.b.loc.space.kind == SpaceKind::shared) accesses[key(2)].push_back(e.b.loc.index);
      }
      for (auto& [key, addresses] : accesses) {
        std::sort(addresses.begin(), addresses.end());
        addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
        std::map<int, std::vector<std::int64_t>> by_bank;
        for (auto address : addresses) by_bank[bank_of(address)].push_back(address);
        for (const auto& [bank, list] : by_bank) {
          if (list.size() < 2) continue;
          for (auto address : list) {
            if (!in_window(address)) continue;
            int& ways = row.cells[static_cast<std::size_t>(col_of(address))].conflict_ways;
            ways = std::max(ways, static_cast<int>(list.size()));
          }
        }
      }
    }
    std::vector<int> threads;
    for (int i : events) threads.push_back(t.events[static_cast<std::size_t>(i)].thread);
    std::sort(threads.begin(), threads.end());
    threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
    row.threads = static_cast<int>(threads.size());
    row.action = action_of(t, mine.empty() ? events : mine, static_cast<int>(threads.size()));
    row.reads = reads_of(t, mine);
    last_row[a] = static_cast<int>(f.rows.size());
    f.rows.push_back(std::move(row));
  };

  std::size_t g = 0;
  bool current_seen = false;
  while (g < by_step.size()) {
    const int s = by_step[g].first;
    std::vector<int> events;
    for (; g < by_step.size() && by_step[g].first == s; ++g) events.push_back(by_step[g].second);
    bool writes[2] = {false, false}, outs = false;
    ArrayKind out_source = ArrayKind::shared;
    for (int i : events) {
      const Event& e = t.events[static_cast<std::size_t>(i)];
      if (s == current && e.thread >= 0 && e.thread < f.block_dim)
        f.active[static_cast<std::size_t>(e.thread)] = 1;
      if (e.dst.space.kind == SpaceKind::shared)
        writes[0] = true;
      else if (e.dst.space.kind == SpaceKind::reg)
        writes[1] = true;
      else if (e.dst.space.kind == SpaceKind::buffer) {
        if (!outs) {
          const Source src = source_of(t, e.a);
          out_source = src.in_array
                           ? src.array
                           : (f.register_size > 0 && f.shared_size == 0 ? ArrayKind::reg
                                                                        : ArrayKind::shared);
        }
        outs = true;
      }
    }
    if (s == current) current_seen = true;
    // Registers first (a thread adds in a register, then stores it), each array its own row; a step
    // that only writes global memory shows the array its values came from, unchanged.
    bool outs_placed = false;
    for (ArrayKind array : {ArrayKind::reg, ArrayKind::shared}) {
      if (!writes[static_cast<int>(array)]) continue;
      const bool here =
          outs && !outs_placed && (array == out_source || !writes[static_cast<int>(out_source)]);
      make_row(s, array, events, here);
      outs_placed = outs_placed || here;
    }
    if (outs && !outs_placed) make_row(s, out_source, events, true);
  }
  if (!current_seen) {
    // The block does nothing at the current step: an empty current row says so.
    f.current_idle = true;
    FigureRow row;
    row.step = current;
    row.number = current + 1;
    row.array = f.rows.empty() ? (f.shared_size > 0 || f.register_size == 0 ? ArrayKind::shared
                                                                            : ArrayKind::reg)
                               : f.rows.back().array;
    row.current = true;
    const int a = static_cast<int>(row.array);
    row.cells.resize(static_cast<std::size_t>(f.column_count));
    for (int c = 0; c < f.column_count; ++c) {
      const auto index = static_cast<std::size_t>(f.first_column + c);
      if (index < value[a].size() && held[a][index]) {
        row.cells[static_cast<std::size_t>(c)].held = true;
        row.cells[static_cast<std::size_t>(c)].value = value[a][index];
      }
    }
    row.action = "this block does nothing";
    f.rows.push_back(std::move(row));
  }
  return f;
}

}  // namespace rl::viewer

#include "viewer/steps.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/trace/trace_facts.h"

namespace rl::viewer {
namespace {

// A step's identity: (launch, phase, line, k).
using Key = std::tuple<int, int, int, int>;

// The facts of one step over every block.
void compute_facts(const Trace& t, Step& s) {
  std::vector<std::pair<int, int>> threads;  // (block, thread)
  // (block, warp, line, side, address) of every shared access. One line's accesses of one side
  // are one warp access whatever their events' kinds: `partial[tid] = i < n ? in[i] : 0` stores
  // loads and constants in one instruction.
  std::vector<std::tuple<int, int, int, int, std::int64_t>> shared;
  for (int i : s.events) {
    const Event& e = t.events[static_cast<std::size_t>(i)];
    threads.emplace_back(e.block, e.thread);
    if (adds(e.kind)) ++s.additions;
    if (adds(e.kind) && e.a.loc.space.kind != SpaceKind::constant &&
        e.b.loc.space.kind != SpaceKind::constant)
      ++s.tree_additions;
    if (e.kind == EventKind::shuffle) ++s.shuffles;
    const int warp = e.thread / kWarpSize, line = e.line;
    if (e.dst.space.kind == SpaceKind::shared)
      shared.emplace_back(e.block, warp, line, 0, e.dst.index);
    if (e.a.loc.space.kind == SpaceKind::shared)
      shared.emplace_back(e.block, warp, line, 1, e.a.loc.index);
    if (e.b.loc.space.kind == SpaceKind::shared)
      shared.emplace_back(e.block, warp, line, 2, e.b.loc.index);
  }
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  s.active_threads = static_cast<int>(threads.size());
  const int block_dim = t.launches[static_cast<std::size_t>(s.launch)].block;
  for (std::size_t i = 0; i < threads.size();) {
    // One warp: its active lanes are consecutive in the sorted list.
    const int block = threads[i].first, warp = threads[i].second / kWarpSize;
    std::size_t j = i;
    while (j < threads.size() && threads[j].first == block && threads[j].second / kWarpSize == warp)
      ++j;
    ++s.active_warps;
    const int lanes = std::min(kWarpSize, block_dim - warp * kWarpSize);
    if (static_cast<int>(j - i) < lanes) ++s.divergent_warps;
    if (s.block_active.empty() || s.block_active.back().first != block)
      s.block_active.emplace_back(block, 0);
    s.block_active.back().second += static_cast<int>(j - i);
    i = j;
  }
  std::sort(shared.begin(), shared.end());
  shared.erase(std::unique(shared.begin(), shared.end()), shared.end());
  for (std::size_t i = 0; i < shared.size();) {
    std::size_t j = i;
    auto same_access = [&](std::size_t a, std::size_t b) {
      return std::get<0>(shared[a]) == std::get<0>(shared[b]) &&
             std::get<1>(shared[a]) == std::get<1>(shared[b]) &&
             std::get<2>(shared[a]) == std::get<2>(shared[b]) &&
             std::get<3>(shared[a]) == std::get<3>(shared[b]);
    };
    while (j < shared.size() && same_access(i, j)) ++j;
    int per_bank[kSharedBanks] = {};
    int ways = 1;
    for (std::size_t a = i; a < j; ++a)
      ways = std::max(ways, ++per_bank[bank_of(std::get<4>(shared[a]))]);
    ++s.shared_accesses;
    const bool store = std::get<3>(shared[i]) == 0;  // the destination
    ++(store ? s.shared_stores : s.shared_loads);
    (store ? s.store_passes : s.load_passes) += ways;
    if (ways > 1) ++s.conflicted_accesses;
    s.worst_conflict = std::max(s.worst_conflict, ways);
    i = j;
  }
}

void add_line(std::vector<int>& lines, int line) {
  if (line > 0 && std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
}

}  // namespace

StepIndex index_steps(const Trace& t) {
  StepIndex out;
  const std::size_t launches = t.launches.size();
  out.block_start.resize(launches);
  for (std::size_t l = 0; l < launches; ++l)
    out.block_start[l].assign(static_cast<std::size_t>(t.launches[l].grid) + 1, 0);
  for (const Event& e : t.events)
    ++out.block_start[static_cast<std::size_t>(e.launch)][static_cast<std::size_t>(e.block) + 1];
  // Prefix sums: block_start[l][b] becomes where block b's events begin, [grid] where launch l's
  // end.
  std::int64_t total = 0;
  for (auto& starts : out.block_start) {
    starts[0] = total;
    for (std::size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
    total = starts.back();
  }
  out.block_events.assign(t.events.size(), 0);
  {
    std::vector<std::vector<std::int64_t>> cursor = out.block_start;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
      const Event& e = t.events[i];
      auto& c = cursor[static_cast<std::size_t>(e.launch)][static_cast<std::size_t>(e.block)];
      out.block_events[static_cast<std::size_t>(c++)] = static_cast<int>(i);
    }
  }

  // Each write event's key, block by block. A barrier closes the latest step (in step order, known
  // only later) among its block's events since the previous barrier (a __syncwarp: its warp's),
  // so it keeps those events as candidates.
  std::vector<Key> key(t.events.size());
  std::vector<char> keyed(t.events.size(), 0);
  std::vector<std::pair<int, std::vector<int>>> closes;  // (barrier event, candidate events)
  std::vector<int> warp_passed;
  std::vector<std::map<std::pair<int, int>, int>> runs;  // per thread: (phase, line) -> runs so far
  std::vector<int> touched;
  for (std::size_t l = 0; l < launches; ++l) {
    const int block_dim = t.launches[l].block;
    warp_passed.assign(static_cast<std::size_t>(block_dim), 0);
    runs.assign(static_cast<std::size_t>(block_dim), {});
    touched.clear();  // the previous launch's threads: its blocks may be wider than this one's
    for (int b = 0; b < t.launches[l].grid; ++b) {
      const auto [first, last] = out.events_of(static_cast<int>(l), b);
      if (first == last) continue;
      for (int th : touched) {
        warp_passed[static_cast<std::size_t>(th)] = 0;
        runs[static_cast<std::size_t>(th)].clear();
      }
      touched.clear();
      int block_barriers = 0, block_last = -1;
      std::vector<int> interval;
      std::vector<std::vector<int>> warp_interval(
          static_cast<std::size_t>((block_dim + kWarpSize - 1) / kWarpSize));
      for (const int* p = first; p != last; ++p) {
        const int i = *p;
        const Event& e = t.events[static_cast<std::size_t>(i)];
        if (e.kind == EventKind::barrier) {
          if (interval.empty() && block_last >= 0) interval.push_back(block_last);
          closes.emplace_back(i, std::move(interval));
          interval.clear();
          for (auto& w : warp_interval) w.clear();
          ++block_barriers;
          continue;
        }
        if (e.kind == EventKind::warp_barrier) {
          auto& wi = warp_interval[static_cast<std::size_t>(e.thread / kWarpSize)];
          if (wi.empty() && block_last >= 0) wi.push_back(block_last);
          closes.emplace_back(i, std::move(wi));
          wi.clear();
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const int th = e.thread + lane;
            if (!((e.mask >> lane) & 1u) || th >= block_dim) continue;
            ++warp_passed[static_cast<std::size_t>(th)];
            touched.push_back(th);  // reset before the next block (duplicates are harmless)
          }
          continue;
        }
        const auto th = static_cast<std::size_t>(e.thread);
        touched.push_back(e.thread);
        const int phase = block_barriers + warp_passed[th];
        const int k = runs[th][{phase, e.line}]++;
        key[static_cast<std::size_t>(i)] = {static_cast<int>(l), phase, e.line, k};
        keyed[static_cast<std::size_t>(i)] = 1;
        interval.push_back(i);
        warp_interval[th / kWarpSize].push_back(i);
        block_last = i;
      }
    }
  }

  // Steps in order: by launch and phase, then as the trace first reaches them.
  std::map<Key, int> first_seen;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (keyed[i]) first_seen.emplace(key[i], static_cast<int>(i));
  }
  std::vector<std::pair<Key, int>> order(first_seen.begin(), first_seen.end());
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    return std::tuple{std::get<0>(x.first), std::get<1>(x.first), x.second} <
           std::tuple{std::get<0>(y.first), std::get<1>(y.first), y.second};
  });
  std::map<Key, int> rank;
  out.steps.resize(order.size());
  for (std::size_t s = 0; s < order.size(); ++s) {
    rank.emplace(order[s].first, static_cast<int>(s));
    Step& st = out.steps[s];
    std::tie(st.launch, st.phase, st.line, st.k) = order[s].first;
  }
  out.event_step.assign(t.events.size(), -1);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (!keyed[i]) continue;
    const int s = rank.at(key[i]);
    out.event_step[i] = s;
    out.steps[static_cast<std::size_t>(s)].events.push_back(static_cast<int>(i));
  }
  for (const auto& [barrier, candidates] : closes) {
    int s = -1;
    for (int i : candidates) s = std::max(s, out.event_step[static_cast<std::size_t>(i)]);
    if (s < 0) continue;  // a barrier closing nothing
    out.event_step[static_cast<std::size_t>(barrier)] = s;
    out.steps[static_cast<std::size_t>(s)].barriers.push_back(barrier);
  }
  for (Step& st : out.steps) std::sort(st.barriers.begin(), st.barriers.end());
  out.launch_first.assign(launches, -1);
  out.launch_count.assign(launches, 0);
  for (std::size_t s = 0; s < out.steps.size(); ++s) {
    Step& st = out.steps[s];
    for (int i : st.events) add_line(st.lines, t.events[static_cast<std::size_t>(i)].line);
    for (int i : st.barriers) add_line(st.lines, t.events[static_cast<std::size_t>(i)].line);
    compute_facts(t, st);
    const auto l = static_cast<std::size_t>(st.launch);
    if (out.launch_first[l] < 0) out.launch_first[l] = static_cast<int>(s);
    ++out.launch_count[l];
  }
  return out;
}

int StepIndex::first_with_additions() const {
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].tree_additions > 0) return static_cast<int>(s);
  }
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].additions > 0) return static_cast<int>(s);
  }
  return 0;
}

const std::vector<int>& StepIndex::lines(int s) const {
  static const std::vector<int> none;
  if (steps.empty()) return none;
  return steps[static_cast<std::size_t>(std::clamp(s, 0, count() - 1))].lines;
}

std::pair<const int*, const int*> StepIndex::events_of(int launch, int block) const {
  if (launch < 0 || static_cast<std::size_t>(launch) >= block_start.size())
    return {nullptr, nullptr};
  const auto& starts = block_start[static_cast<std::size_t>(launch)];
  if (block < 0 || static_cast<std::size_t>(block) + 1 >= starts.size()) return {nullptr, nullptr};
  const int* base = block_events.data();
  return {base + starts[static_cast<std::size_t>(block)],
          base + starts[static_cast<std::size_t>(block) + 1]};
}

}  // namespace rl::viewer

#include "common/trace/trace_facts.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace rl {

void Totals::add(const LevelFacts& s) {
  active_thread_levels += s.active_threads;
  active_warp_levels += s.active_warps;
  divergent_warp_levels += s.divergent_warps;
  worst_bank_conflict = std::max(worst_bank_conflict, s.worst_bank_conflict);
  shared_accesses += s.shared_accesses;
  conflicted_accesses += s.conflicted_accesses;
  shared_wavefronts += s.shared_wavefronts;
  for (const auto& w : s.shuffles) shuffles += static_cast<std::int64_t>(w.pairs.size());
}

const LevelFacts* TraceFacts::find(int launch, int level) const {
  auto it = std::lower_bound(levels.begin(), levels.end(), std::pair{launch, level},
                             [](const LevelFacts& s, const std::pair<int, int>& k) {
                               return std::pair{s.launch, s.level} < k;
                             });
  return it != levels.end() && it->launch == launch && it->level == level ? &*it : nullptr;
}

namespace {

int conflict_ways(const std::vector<std::int64_t>& addresses) {
  std::map<int, std::set<std::int64_t>> by_bank;
  for (auto a : addresses) by_bank[bank_of(a)].insert(a);
  int worst = 1;
  for (const auto& [bank, set] : by_bank) worst = std::max(worst, static_cast<int>(set.size()));
  return worst;
}

// A memory location within one block of one launch, as a map key: (launch, block, space, index),
// with global buffers as space 16 + buffer.
using LocKey = std::tuple<int, int, int, std::int64_t>;
LocKey loc_key(const Event& e, const Location& l) {
  if (l.space.kind == SpaceKind::buffer) return {e.launch, e.block, 16 + l.space.buffer, l.index};
  return {e.launch, e.block, static_cast<int>(l.space.kind), l.index};
}

// Who held each memory value in a register: for every location, the events whose a operand read it
// (in event order), so that a shuffle whose b operand names the location finds the lane it came
// from.
using Holders = std::map<LocKey, std::vector<int>>;

Holders holders_of(const Trace& t) {
  Holders h;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (e.a.memory()) h[loc_key(e, e.a.loc)].push_back(static_cast<int>(i));
  }
  return h;
}

// The source lane of shuffle event `ei` (see WarpShuffles), or -1.
int source_lane(const Trace& t, const Holders& holders, int ei) {
  const Event& e = t.events[static_cast<std::size_t>(ei)];
  const int warp = e.thread / kWarpSize;
  if (e.b.loc.space.kind == SpaceKind::event) {
    const Event& src = t.events[static_cast<std::size_t>(e.b.loc.index)];
    return src.thread >= 0 && src.thread / kWarpSize == warp ? src.thread % kWarpSize : -1;
  }
  if (!e.b.memory()) return -1;
  auto it = holders.find(loc_key(e, e.b.loc));
  if (it == holders.end()) return -1;
  int best = -1;
  int best_distance = 0;
  for (int hi : it->second) {
    const Event& h = t.events[static_cast<std::size_t>(hi)];
    if (h.thread == e.thread || h.thread < 0 || h.thread / kWarpSize != warp) continue;
    const int d = std::abs(hi - ei);
    if (best < 0 || d < best_distance) {
      best = h.thread % kWarpSize;
      best_distance = d;
    }
  }
  return best;
}

// Facts of one (launch, level) from the indexes of its events.
LevelFacts level_facts(const Trace& t, const Holders& holders, int launch, int level,
                       const std::vector<int>& idx) {
  LevelFacts f;
  f.launch = launch;
  f.level = level;
  const int block_size = t.launches[static_cast<std::size_t>(f.launch)].block;

  std::set<std::pair<int, int>> active;  // (block, thread)
  // (block, warp, line, kind, side, ordinal) -> addresses; the ordinal separates repeated
  // accesses of one lane to one instruction within a level (a loop inside the level).
  using AccessKey = std::tuple<int, int, int, int, int, int>;
  std::map<AccessKey, std::vector<std::int64_t>> accesses;
  // (block, thread, line, kind, side) -> count
  std::map<std::tuple<int, int, int, int, int>, int> ordinal;
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> shuffles;

  for (int i : idx) {
    const Event& e = t.events[static_cast<std::size_t>(i)];
    if (e.line > 0 && std::find(f.lines.begin(), f.lines.end(), e.line) == f.lines.end())
      f.lines.push_back(e.line);
    if (e.thread < 0 || is_barrier(e.kind)) continue;
    if (e.kind == EventKind::load || e.kind == EventKind::combine || e.kind == EventKind::shuffle) {
      active.insert({e.block, e.thread});
    }
    const int warp = e.thread / kWarpSize;
    auto note = [&](const Location& l, AccessSide side) {
      if (l.space.kind != SpaceKind::shared) return;
      const int s = static_cast<int>(side);
      const int k = ordinal[{e.block, e.thread, e.line, static_cast<int>(e.kind), s}]++;
      accesses[{e.block, warp, e.line, static_cast<int>(e.kind), s, k}].push_back(l.index);
    };
    note(e.dst, AccessSide::dst);
    note(e.a.loc, AccessSide::a);
    note(e.b.loc, AccessSide::b);
    if (e.kind == EventKind::shuffle) {
      shuffles[{e.block, warp}].emplace_back(e.thread % kWarpSize, source_lane(t, holders, i));
    }
  }

  f.active_threads = static_cast<int>(active.size());
  std::map<std::pair<int, int>, int> lanes_active;  // (block, warp) -> active lanes
  for (const auto& [block, thread] : active) ++lanes_active[{block, thread / kWarpSize}];
  for (const auto& [bw, count] : lanes_active) {
    const int lanes = std::min(kWarpSize, block_size - bw.second * kWarpSize);
    ++f.active_warps;
    if (count < lanes) ++f.divergent_warps;
  }

  for (auto& [key, addresses] : accesses) {
    WarpAccess a;
    a.block = std::get<0>(key);
    a.warp = std::get<1>(key);
    a.line = std::get<2>(key);
    a.kind = static_cast<EventKind>(std::get<3>(key));
    a.side = static_cast<AccessSide>(std::get<4>(key));
    a.banks.reserve(addresses.size());
    for (auto ad : addresses) a.banks.push_back(bank_of(ad));
    a.conflict_ways = conflict_ways(addresses);
    a.addresses = std::move(addresses);
    ++f.shared_accesses;
    if (a.conflict_ways > 1) ++f.conflicted_accesses;
    f.shared_wavefronts += a.conflict_ways;
    f.worst_bank_conflict = std::max(f.worst_bank_conflict, a.conflict_ways);
    f.accesses.push_back(std::move(a));
  }
  for (auto& [bw, pairs] : shuffles) {
    std::sort(pairs.begin(), pairs.end());
    f.shuffles.push_back({bw.first, bw.second, std::move(pairs)});
  }
  return f;
}

}  // namespace

TraceFacts compute_facts(const Trace& t) {
  TraceFacts out;
  out.launches.resize(t.launches.size());
  // The loader fills the DAG; a Trace built by hand may not have it yet.
  const Dag built = t.dag.event_levels.size() == t.events.size() ? Dag{} : build_dag(t);
  const std::vector<int>& levels =
      t.dag.event_levels.size() == t.events.size() ? t.dag.event_levels : built.event_levels;
  // (launch, level) -> events, in event order
  std::map<std::pair<int, int>, std::vector<int>> groups;
  for (std::size_t i = 0; i < t.events.size(); ++i)
    groups[{t.events[i].launch, levels[i]}].push_back(static_cast<int>(i));
  const Holders holders = holders_of(t);
  for (const auto& [key, idx] : groups) {
    LevelFacts f = level_facts(t, holders, key.first, key.second, idx);
    out.launches[static_cast<std::size_t>(f.launch)].add(f);
    out.total.add(f);
    out.levels.push_back(std::move(f));
  }
  return out;
}

}  // namespace rl

#include "common/trace/trace_facts.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace rl {

void Totals::add(const StepFacts& s) {
  active_thread_steps += s.active_threads;
  active_warp_steps += s.active_warps;
  divergent_warp_steps += s.divergent_warps;
  worst_bank_conflict = std::max(worst_bank_conflict, s.worst_bank_conflict);
  shared_accesses += s.shared_accesses;
  conflicted_accesses += s.conflicted_accesses;
  shared_wavefronts += s.shared_wavefronts;
  for (const auto& w : s.shuffles) shuffles += static_cast<std::int64_t>(w.pairs.size());
}

const StepFacts* TraceFacts::find(int launch, int step) const {
  auto it = std::lower_bound(steps.begin(), steps.end(), std::pair{launch, step},
                             [](const StepFacts& s, const std::pair<int, int>& k) {
                               return std::pair{s.launch, s.step} < k;
                             });
  return it != steps.end() && it->launch == launch && it->step == step ? &*it : nullptr;
}

namespace {

int conflict_ways(const std::vector<std::int64_t>& addresses) {
  std::map<int, std::set<std::int64_t>> by_bank;
  for (auto a : addresses) by_bank[bank_of(a)].insert(a);
  int worst = 1;
  for (const auto& [bank, set] : by_bank) worst = std::max(worst, static_cast<int>(set.size()));
  return worst;
}

// Facts of one (launch, step) from the indexes of its events.
StepFacts step_facts(const Trace& t, const std::vector<int>& idx) {
  StepFacts f;
  const Event& first = t.events[static_cast<std::size_t>(idx.front())];
  f.launch = first.launch;
  f.step = first.step;
  const int block_size = t.launches[static_cast<std::size_t>(f.launch)].block;

  std::set<std::pair<int, int>> active;  // (block, thread)
  // (block, warp, line, kind, dst?, ordinal) -> addresses; the ordinal separates repeated
  // accesses of one lane to one instruction within a step (a loop inside the step).
  using AccessKey = std::tuple<int, int, int, int, int, int>;
  std::map<AccessKey, std::vector<std::int64_t>> accesses;
  std::map<std::tuple<int, int, int, int, int>, int> ordinal;  // (block, thread, line, kind, dst?) -> count
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> shuffles;
  int lines = 0;

  for (int i : idx) {
    const Event& e = t.events[static_cast<std::size_t>(i)];
    if (e.line > 0 && lines < 4 && std::find(f.lines, f.lines + lines, e.line) == f.lines + lines) f.lines[lines++] = e.line;
    if (e.thread < 0) continue;
    if (e.kind == EventKind::load || e.kind == EventKind::combine || e.kind == EventKind::shuffle) {
      active.insert({e.block, e.thread});
    }
    const int warp = e.thread / kWarpSize;
    auto note = [&](const Location& l, bool dst) {
      if (l.space.kind != SpaceKind::shared) return;
      const int k = ordinal[{e.block, e.thread, e.line, static_cast<int>(e.kind), dst ? 1 : 0}]++;
      accesses[{e.block, warp, e.line, static_cast<int>(e.kind), dst ? 1 : 0, k}].push_back(l.index);
    };
    note(e.dst, true);
    note(e.src, false);
    if (e.kind == EventKind::shuffle && e.src.space.kind == SpaceKind::reg) {
      shuffles[{e.block, warp}].emplace_back(e.thread % kWarpSize, static_cast<int>(e.src.index % kWarpSize));
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
    a.dst = std::get<4>(key) == 1;
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
  std::vector<int> order(t.events.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Event& x = t.events[static_cast<std::size_t>(a)];
    const Event& y = t.events[static_cast<std::size_t>(b)];
    return std::pair{x.launch, x.step} < std::pair{y.launch, y.step};
  });
  std::vector<int> group;
  auto flush = [&] {
    if (group.empty()) return;
    StepFacts f = step_facts(t, group);
    out.launches[static_cast<std::size_t>(f.launch)].add(f);
    out.total.add(f);
    out.steps.push_back(std::move(f));
    group.clear();
  };
  for (int i : order) {
    if (!group.empty()) {
      const Event& g = t.events[static_cast<std::size_t>(group.front())];
      const Event& e = t.events[static_cast<std::size_t>(i)];
      if (g.launch != e.launch || g.step != e.step) flush();
    }
    group.push_back(i);
  }
  flush();
  return out;
}

}  // namespace rl

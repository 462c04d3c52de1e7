#include "common/host/idea.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/host/cli.h"
#include "common/host/grade_main.h"
#include "common/host/grading.h"
#include "common/host/results.h"
#include "common/host/session.h"
#include "common/host/trace_run.h"
#include "common/sim/runtime.h"
#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"

namespace rl {

IdeaFigures idea_figures_of(const Trace& t, bool last_launch) {
  IdeaFigures f;
  if (t.launches.empty()) return f;
  const int launch = last_launch ? static_cast<int>(t.launches.size()) - 1 : 0;
  f.block = static_cast<unsigned>(t.launches[static_cast<std::size_t>(launch)].block);
  f.grid = static_cast<unsigned>(t.launches[static_cast<std::size_t>(launch)].grid);
  const int input = t.input_buffer();
  std::map<int, IdeaLevel> levels;
  std::map<int, std::set<int>> working;  // level -> threads
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (e.launch != launch || e.block != 0) continue;
    for (const Operand* o : {&e.a, &e.b})
      if (o->loc.space.kind == SpaceKind::buffer && o->loc.space.buffer == input)
        f.farthest_input = std::max(f.farthest_input, o->loc.index);
    const int level = t.level_of(i);
    IdeaLevel& l = levels[level];
    l.level = level;
    if (l.line == 0 && e.kind != EventKind::barrier && e.kind != EventKind::warp_barrier)
      l.line = e.line;
    switch (e.kind) {
      case EventKind::barrier:
        if (l.barriers++ == 0) l.barrier_line = e.line;
        break;
      case EventKind::shuffle:
        ++l.shuffles;
        [[fallthrough]];
      case EventKind::combine:
      case EventKind::atomic:
        ++l.adds;
        [[fallthrough]];
      case EventKind::load:
        working[level].insert(e.thread);
        break;
      default:
        break;
    }
  }
  for (auto& [level, threads] : working) {
    IdeaLevel& l = levels[level];
    l.threads = static_cast<int>(threads.size());
    std::map<int, int> per_warp;
    for (int thread : threads) ++per_warp[thread / kWarpSize];
    l.warps = static_cast<int>(per_warp.size());
    for (const auto& [warp, lanes] : per_warp) {
      const int warp_lanes = std::min(kWarpSize, static_cast<int>(f.block) - warp * kWarpSize);
      if (lanes < warp_lanes) ++l.divergent;
    }
  }
  for (const LevelFacts& lf : compute_facts(t).levels) {
    if (lf.launch != launch) continue;
    for (const WarpAccess& a : lf.accesses) {
      if (a.block != 0) continue;
      IdeaLevel& l = levels[lf.level];
      l.level = lf.level;
      if (l.shared++ == 0) l.shared_line = a.line;
      if (a.conflict_ways > l.conflict) l.conflict = a.conflict_ways, l.conflict_line = a.line;
    }
  }
  for (auto& [level, l] : levels) f.levels.push_back(l);
  return f;
}

IdeaFigures committed_trace_figures(const std::string& relative) {
  const std::string path = committed_asset_path(relative);
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read the course's committed trace " + path);
  std::stringstream text;
  text << in.rdbuf();
  return idea_figures_of(parse_trace(text.str(), path));
}

IdeaFigures idea_figures(Device& device, const Plan& plan, std::uint64_t base_seed, std::uint64_t n,
                         unsigned block) {
  RunOptions o;
  o.seed = graded_seed(grade_seeds[1], base_seed);
  Session session(device, o);
  session.prepare(n);
  sim::reset_fences_called();
  sim::reset_loads_before_first_add();
  sim::reset_remote_shared_maps();
  const nlohmann::json doc = record_trace(session, plan, block);
  const sim::FencesCalled fences = sim::fences_called();
  const sim::LoadsBeforeAdd ahead = sim::loads_before_first_add();
  const std::uint64_t remote_maps = sim::remote_shared_maps();
  IdeaFigures f =
      idea_figures_of(parse_trace(doc.dump(), "the trace of lesson " + std::to_string(plan.lesson)),
                      plan.idea.last_launch);
  f.fences = fences.count;
  f.fence_line = static_cast<int>(fences.lowest_line);
  f.loads_before_add = ahead.added ? static_cast<std::int64_t>(ahead.loads) : -1;
  f.remote_maps = remote_maps;
  return f;
}

namespace {

std::string where(const IdeaLevel& l, int line) {
  return "level " + std::to_string(l.level) + " (line " + std::to_string(line) + ")";
}

int log2_of(unsigned block) { return std::bit_width(block) - 1; }

// The levels of a tree over `block` values, halving each level: ceil(log2(block)) (192 values: 8).
int tree_levels(unsigned block) { return block <= 1 ? 0 : std::bit_width(block - 1); }

}  // namespace

int last_warp_adds(const IdeaFigures& f) {
  int last_barrier = -1;
  for (const IdeaLevel& l : f.levels)
    if (l.barriers > 0) last_barrier = l.level;
  int adds = 0;
  for (const IdeaLevel& l : f.levels)
    if (l.level > last_barrier) adds += l.adds;
  return adds;
}

std::optional<std::string> idea_judged(const IdeaFigures& f, const Idea& idea) {
  if (!idea.any()) return std::nullopt;
  const std::string block = std::to_string(f.block);
  const std::string intro = "n=" + std::to_string(idea_n) + " block=" + block +
                            ", the trace of block 0" +
                            (idea.last_launch ? " of the last launch: " : ": ");
  if (f.levels.empty()) return intro + "no level of work was recorded";
  if (idea.no_fences && f.fences > 0)
    return "n=" + std::to_string(idea_n) + " block=" + block +
           ", the whole run: its blocks called " + "__threadfence() " + std::to_string(f.fences) +
           " times (line " + std::to_string(f.fence_line) +
           "): here the ticket itself must order the handover, a release for each block's partial "
           "and an acquire for the last block's reads, given as the atomic operation's memory "
           "order";
  if (idea.loads_ahead > 0 &&
      (f.loads_before_add < 0 || f.loads_before_add < std::int64_t{idea.loads_ahead}))
    return "n=" + std::to_string(idea_n) + " block=" + block + ", thread 0 of block 0 " +
           (f.loads_before_add < 0
                ? std::string("added nothing it loaded")
                : "issued " + std::to_string(f.loads_before_add) + " load" +
                      (f.loads_before_add == 1 ? "" : "s") + " before its first addition") +
           ", where the variant has " + std::to_string(idea.loads_ahead) +
           " on their way by then: the next turn's loads are issued before the thread adds the "
           "turn it holds, so its loads stay in flight while it adds";
  if (idea.cluster_shares && 2 * f.remote_maps < f.grid)
    return "n=" + std::to_string(idea_n) + " block=" + block + ", the whole run: its " +
           std::to_string(f.grid) + " blocks mapped another block's shared memory " +
           std::to_string(f.remote_maps) + " time" + (f.remote_maps == 1 ? "" : "s") +
           " (cluster.map_shared_rank), where every block but each cluster's first hands its sum "
           "to the first in distributed shared memory: a cluster's blocks meet there, not in "
           "global memory";
  if (idea.tree) {
    int add_levels = 0;
    const IdeaLevel* deepest = nullptr;
    for (const IdeaLevel& l : f.levels)
      if (l.adds > 0) ++add_levels, deepest = &l;
    const int tree = tree_levels(f.block);
    if (add_levels > tree + 1)
      return intro + "its " + block + " values meet in " + std::to_string(add_levels) +
             " levels of additions, the last at " + where(*deepest, deepest->line) +
             "; a tree needs " + std::to_string(tree) +
             ": at every level half the remaining values are added to the other half at once, "
             "not one after another";
  }
  if (idea.whole_warps)
    for (const IdeaLevel& l : f.levels)
      if (l.threads >= kWarpSize && l.divergent > 0)
        return intro + where(l, l.line) + ": " + std::to_string(l.threads) + " threads work, but " +
               std::to_string(l.divergent) + (l.divergent == 1 ? " warp has" : " warps have") +
               " idle lanes beside working ones (divergence): the working threads must be "
               "contiguous from thread 0, so that whole warps work or rest";
  if (idea.no_bank_conflicts)
    for (const IdeaLevel& l : f.levels)
      if (l.conflict > 1)
        return intro + where(l, l.conflict_line) + ": a warp's shared-memory access has a " +
               std::to_string(l.conflict) + "-way bank conflict (" + std::to_string(l.conflict) +
               " words in one bank, read one after another): a warp's lanes must touch words in "
               "32 different banks (word w is in bank w % 32)";
  if (idea.last_warp_unsynced)
    for (const IdeaLevel& l : f.levels)
      if (l.threads > 0 && l.threads <= kWarpSize && l.barriers > 0)
        return intro + where(l, l.line) + ": only " + std::to_string(l.threads) +
               " threads work, yet the whole block waits at a __syncthreads (line " +
               std::to_string(l.barrier_line) +
               ") after it: the last warp's levels need no block barrier, only __syncwarp";
  if (idea.last_warp_narrows) {
    const IdeaLevel* before = nullptr;
    for (const IdeaLevel& l : f.levels) {
      if (l.adds == 0 || l.threads > kWarpSize) continue;
      if (before && 2 * l.threads > before->threads)
        return intro + where(l, l.line) + ": " + std::to_string(l.threads) +
               " threads add, where the level before had " + std::to_string(before->threads) +
               ": only the lanes whose sums are still needed should work, half as many each level";
      before = &l;
    }
  }
  if (idea.last_warp_shuffles) {
    int shuffle_levels = 0;
    for (const IdeaLevel& l : f.levels) shuffle_levels += l.shuffles > 0 ? 1 : 0;
    if (shuffle_levels < log2_of(kWarpSize)) {
      const IdeaLevel* tail = nullptr;
      for (const IdeaLevel& l : f.levels)
        if (l.adds > 0 && l.threads <= kWarpSize && !tail) tail = &l;
      return intro + std::to_string(shuffle_levels) + " levels add through shuffles, where the " +
             "last warp needs " + std::to_string(log2_of(kWarpSize)) +
             (tail ? "; from " + where(*tail, tail->line) +
                         " the last warp's values still go through shared memory"
                   : std::string()) +
             ": they can move from register to register, lane to lane, with warp shuffles";
    }
  }
  if (idea.max_barriers >= 0) {
    int barriers = 0;
    const IdeaLevel* first = nullptr;
    for (const IdeaLevel& l : f.levels)
      if (l.barriers > 0) barriers += l.barriers, first = first ? first : &l;
    if (barriers > idea.max_barriers)
      return intro + "the block passes " + std::to_string(barriers) +
             " __syncthreads (the first at line " + std::to_string(first->barrier_line) +
             (idea.max_barriers == 0
                  ? "), where none is needed: one warp reduces its values by shuffles, which wait "
                    "for the lanes they name"
                  : "), where " + std::to_string(idea.max_barriers) +
                        " is enough: each warp reduces its own values by shuffles, and the block "
                        "meets once, to share the warps' totals");
  }
  if (idea.loads_past_reach) {
    const std::uint64_t reach = std::uint64_t{f.grid} * f.block;
    if (f.farthest_input < 0 || static_cast<std::uint64_t>(f.farthest_input) < reach)
      return intro + "block 0 of the grid's " + std::to_string(f.grid) + " read no input at or " +
             "past the grid's reach (" + std::to_string(f.grid) + " blocks x " + block +
             " threads = " + std::to_string(reach) + "), the farthest it read being input " +
             std::to_string(f.farthest_input) +
             ": the grid's first loads cover one half of the input, its second loads the other, "
             "so a thread's second input is the grid's reach further on, not one block";
  }
  return std::nullopt;
}

std::string to_text(const IdeaFigures& f) {
  std::ostringstream out;
  out << f.block << ',' << f.grid << ',' << f.farthest_input << ',' << f.fences << ','
      << f.fence_line << ',' << f.loads_before_add << ',' << f.remote_maps;
  for (const IdeaLevel& l : f.levels)
    out << ' ' << l.level << ',' << l.line << ',' << l.threads << ',' << l.warps << ','
        << l.divergent << ',' << l.adds << ',' << l.conflict << ',' << l.conflict_line << ','
        << l.shared << ',' << l.shared_line << ',' << l.shuffles << ',' << l.barriers << ','
        << l.barrier_line;
  return out.str();
}

std::optional<IdeaFigures> parse_idea_figures(std::string_view text) {
  const auto number = [&](std::string_view& s, char end, auto& value) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc{} || value < 0) return false;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
    if (end == '\0') return true;
    if (s.empty() || s.front() != end) return false;
    s.remove_prefix(1);
    return true;
  };
  IdeaFigures f;
  std::int64_t farthest = 0;
  if (!number(text, ',', f.block) || f.block == 0 || f.block > 1024 || !number(text, ',', f.grid) ||
      f.grid == 0)
    return std::nullopt;
  if (text.starts_with("-1,")) {  // no input read
    text.remove_prefix(3);
  } else {
    if (!number(text, ',', farthest)) return std::nullopt;
    f.farthest_input = farthest;
  }
  if (!number(text, ',', f.fences) || !number(text, ',', f.fence_line)) return std::nullopt;
  if (text.starts_with("-1,")) {  // thread 0 added nothing
    text.remove_prefix(3);
  } else {
    std::int64_t loads = 0;
    if (!number(text, ',', loads)) return std::nullopt;
    f.loads_before_add = loads;
  }
  if (!number(text, '\0', f.remote_maps)) return std::nullopt;
  while (!text.empty()) {
    if (text.front() != ' ' || f.levels.size() >= 4096) return std::nullopt;
    text.remove_prefix(1);
    IdeaLevel l;
    if (!number(text, ',', l.level) || !number(text, ',', l.line) ||
        !number(text, ',', l.threads) || !number(text, ',', l.warps) ||
        !number(text, ',', l.divergent) || !number(text, ',', l.adds) ||
        !number(text, ',', l.conflict) || !number(text, ',', l.conflict_line) ||
        !number(text, ',', l.shared) || !number(text, ',', l.shared_line) ||
        !number(text, ',', l.shuffles) || !number(text, ',', l.barriers) ||
        !number(text, '\0', l.barrier_line))
      return std::nullopt;
    f.levels.push_back(l);
  }
  return f;
}

std::string describe(const Idea& idea) {
  std::vector<std::string> parts;
  if (idea.tree) parts.emplace_back("a tree of ceil(log2(block)) levels");
  if (idea.whole_warps) parts.emplace_back("whole warps working");
  if (idea.no_bank_conflicts) parts.emplace_back("no bank conflicts");
  if (idea.last_warp_unsynced) parts.emplace_back("no __syncthreads in the last warp");
  if (idea.last_warp_narrows) parts.emplace_back("half the last warp's adders each level");
  if (idea.last_warp_shuffles) parts.emplace_back("the last warp through shuffles");
  if (idea.max_barriers >= 0)
    parts.emplace_back("at most " + std::to_string(idea.max_barriers) + " __syncthreads a block");
  if (idea.loads_past_reach) parts.emplace_back("loads past the grid's reach");
  if (idea.no_fences) parts.emplace_back("no __threadfence: the ticket's memory order orders");
  if (idea.works_before_wait) parts.emplace_back("the block's own work before its wait");
  if (idea.cluster_shares) parts.emplace_back("a cluster's sums through distributed shared memory");
  if (idea.loads_ahead > 0)
    parts.emplace_back(std::to_string(idea.loads_ahead) +
                       " loads on their way before a thread's first add");
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace rl

#include "common/runner/sim_counts.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/host/launch_observer.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/host/trace_run.h"
#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"

namespace rl {
namespace {

// The launches of one reduction at the session's n, each with its grid and block.
std::vector<LaunchShape> observe_launches(Session& session, const Plan& plan, unsigned block) {
  Device& device = session.device();
  const DeviceShape shape = device.shape();
  DeviceBuffer out(device, sizeof(float));
  DeviceBuffer scratch(device, plan.scratch_bytes(session.n(), block, shape));
  std::vector<LaunchShape> seen;
  set_launch_observer([&](const LaunchShape& l) { seen.push_back(l); });
  try {
    plan.reduce({session.device_input(), out.get<float>(), session.n(), block, scratch.get(), shape,
                 device.stream()});
    device.synchronize();
  } catch (...) {
    set_launch_observer({});
    throw;
  }
  set_launch_observer({});
  return seen;
}

// Per block of the first launch: barriers, shared-memory warp accesses and their passes; over the
// whole trace: the lanes that work in a warp at a level of its tree.
void count_trace(const Trace& t, RungCounts& c) {
  if (t.launches.empty()) return;
  const double blocks = std::max(1, t.launches.front().grid);
  std::int64_t barriers = 0;
  for (const Event& e : t.events)
    if (e.launch == 0 && e.kind == EventKind::barrier && e.thread == -1) ++barriers;
  c.barriers_per_block = t.barriers ? static_cast<double>(barriers) / blocks : -1;
  const TraceFacts facts = compute_facts(t);
  if (!facts.launches.empty()) {
    const Totals& first = facts.launches.front();
    c.shared_per_block = static_cast<double>(first.shared_accesses) / blocks;
  }
  c.passes_per_access = facts.total.shared_accesses > 0
                            ? static_cast<double>(facts.total.shared_wavefronts) /
                                  static_cast<double>(facts.total.shared_accesses)
                            : 0;
  c.lanes_per_warp_step = facts.total.active_warp_levels > 0
                              ? static_cast<double>(facts.total.active_thread_levels) /
                                    static_cast<double>(facts.total.active_warp_levels)
                              : 0;
}

std::string or_dash(double v, int decimals) { return v < 0 ? "-" : fixed(v, decimals); }

}  // namespace

RungCounts count_rung(Device& device, const RunOptions& options, Session& session, const Plan& plan,
                      unsigned block, std::uint64_t traced_n) {
  RungCounts c;
  const std::vector<LaunchShape> launches = observe_launches(session, plan, block);
  c.launches = static_cast<unsigned>(launches.size());
  if (!launches.empty()) {
    const double threads = static_cast<double>(launches.front().grid) * launches.front().block;
    c.elements_per_thread = static_cast<double>(session.n()) / threads;
  }
  c.longest_chain = plan.depth(session.n(), block, device.shape());
  if (!plan.reduce_traced || !plan.attach_trace) return c;
  c.traced_n = std::min(session.n(), traced_n);
  Session small(device, options);
  small.prepare(c.traced_n);
  const nlohmann::json doc = record_trace(small, plan, block);
  count_trace(parse_trace(doc.dump(), "the trace of lesson " + std::to_string(plan.lesson)), c);
  return c;
}

std::string measured_ladder_path() {
  const std::string in_tree = "assets/results/h100-bench.json";
  // From the source tree's root (where lessons/run-course.sh runs it) the short name says enough.
  return std::filesystem::exists(in_tree) ? in_tree : std::string(RL_SOURCE_DIR) + "/" + in_tree;
}

std::optional<MeasuredLadder> MeasuredLadder::load(const std::string& path, std::string& why) {
  std::ifstream in(path);
  if (!in) {
    why = "cannot read " + path;
    return std::nullopt;
  }
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || doc.value("schema", "") != "reducelab.results" ||
      !doc.contains("runs") || !doc["runs"].is_array()) {
    why = path + " is not a results file";
    return std::nullopt;
  }
  MeasuredLadder m;
  m.path = path;
  if (doc.contains("device") && doc["device"].is_object())
    m.device = doc["device"].value("name", "");
  m.date = doc.value("created_utc", "").substr(0, 10);
  for (const auto& r : doc["runs"]) {
    if (!r.is_object() || !r.contains("time") || !r["time"].is_object()) continue;
    Row row{r.value("lesson", 0),
            r.value("variant", ""),
            r.value("n", std::uint64_t{0}),
            r.value("block", 0u),
            {}};
    row.m.median_ms = r["time"].value("median_ms", 0.0);
    if (r.contains("pct_of_ceiling") && r["pct_of_ceiling"].is_number())
      row.m.pct_of_ceiling = r["pct_of_ceiling"].get<double>();
    m.rows_.push_back(std::move(row));
  }
  const double theoretical = doc.contains("device") && doc["device"].is_object()
                                 ? doc["device"].value("theoretical_gbps", 0.0)
                                 : 0.0;
  if (doc.contains("baselines") && doc["baselines"].is_array())
    for (const auto& b : doc["baselines"]) {
      if (!b.is_object() || !b.contains("stream_read") || !b["stream_read"].is_object()) continue;
      MeasuredYardsticks y;
      y.ceiling_ms = b["stream_read"].value("median_ms", 0.0);
      y.ceiling_gbps = b.value("stream_read_gbps", 0.0);
      if (b.contains("cub") && b["cub"].is_object()) y.cub_ms = b["cub"].value("median_ms", 0.0);
      y.theoretical_gbps = theoretical;
      m.yardsticks_.emplace_back(b.value("n", std::uint64_t{0}), y);
    }
  return m;
}

std::optional<MeasuredYardsticks> MeasuredLadder::yardsticks(std::uint64_t n) const {
  for (const auto& [at, y] : yardsticks_)
    if (at == n) return y;
  return std::nullopt;
}

std::optional<MeasuredRung> MeasuredLadder::find(int lesson, std::string_view variant,
                                                 std::uint64_t n, unsigned block) const {
  for (const Row& r : rows_)
    if (r.lesson == lesson && r.variant == variant && r.n == n && r.block == block) return r.m;
  return std::nullopt;
}

void print_simulated_ladder(std::ostream& out, const std::vector<CaseResult>& results,
                            const std::vector<RungCounts>& counts,
                            const std::optional<MeasuredLadder>& measured, std::uint64_t n) {
  const std::uint64_t traced = counts.empty() ? 0 : counts.front().traced_n;
  out << "On the simulator, what each rung does (a simulated time is a CPU's, not a GPU's):\n"
      << "  at n = " << size_text(n)
      << ": its launches, the inputs a thread adds before its tree, the longest chain of additions "
         "from an input to the total (at most);\n"
      << "  from a trace at n = " << size_text(traced)
      << ", per block of its first launch: barriers, warp-wide shared-memory accesses, the passes "
         "an access needs (1: no bank conflict),\n"
      << "  and the lanes working in a warp at a level of its tree (of 32).\n";
  if (measured)
    out << "Beside them, what " << measured->device << " measured on " << measured->date
        << " at the same n and block (" << measured->path << ").\n";
  out << '\n';
  Table t({"lesson", "kernel", "block", "launches", "inputs/thread", "chain (at most)",
           "barriers/block", "shared/block", "passes/access", "lanes/warp step",
           measured ? "GPU time" : "GPU time (none)", "% of ceiling", "verified"});
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CaseResult& r = results[i];
    const RungCounts& c = counts[i];
    const std::string name = r.plan.variant.empty()
                                 ? std::string(r.plan.slug)
                                 : std::string(r.plan.slug) + " / " + std::string(r.plan.variant);
    std::optional<MeasuredRung> m;
    if (measured) m = measured->find(r.plan.lesson, r.plan.variant, r.n, r.block);
    t.add({std::to_string(r.plan.lesson), name, std::to_string(r.block), std::to_string(c.launches),
           general(c.elements_per_thread, 3), std::to_string(c.longest_chain),
           or_dash(c.barriers_per_block, 1), or_dash(c.shared_per_block, 1),
           or_dash(c.passes_per_access, 2), or_dash(c.lanes_per_warp_step, 1),
           m ? duration(m->median_ms) : "-",
           m && m->pct_of_ceiling >= 0 ? fixed(m->pct_of_ceiling, 1) : "-",
           r.check.verified ? "yes" : "NO"});
  }
  t.print(out);
}

}  // namespace rl

#include "common/host/grading.h"

#include <bit>
#include <cmath>
#include <exception>

#include "common/host/sim_bridge.h"
#include "common/host/table.h"

namespace rl {

std::vector<std::uint64_t> graded_sizes(bool huge) {
  std::vector<std::uint64_t> s{0, 1, 31, 32, 33, 255, 256, 257, 1000, (1u << 16) + 1, 1u << 20};
  if (huge) s.push_back((1u << 24) + 3);
  return s;
}

std::vector<GradeCase> graded_cases(bool huge) {
  std::vector<GradeCase> cases;
  for (std::uint64_t n : graded_sizes(huge)) {
    for (std::uint64_t seed : grade_seeds) {
      if (n > (1u << 16) && seed != grade_seeds[0]) continue;  // big sizes once: they cover every block anyway
      cases.push_back({n, 256, seed, Distribution::uniform, false});
    }
    if (n <= (1u << 20)) cases.push_back({n, 256, grade_seeds[1], Distribution::integers, true});
  }
  for (unsigned block : {32u, 64u, 128u, 512u, 1024u})
    for (std::uint64_t n : {std::uint64_t{block} + 1, std::uint64_t{1000}, std::uint64_t{block} * 67 - 3})
      cases.push_back({n, block, grade_seeds[2], Distribution::positive, false});
  return cases;
}

std::string describe(const GradeCase& c) {
  return "n=" + std::to_string(c.n) + " block=" + std::to_string(c.block) + " seed=" + std::to_string(c.seed) + " " +
         std::string(to_string(c.distribution));
}

CaseResult run_graded_case(Device& device, const Plan& r, const GradeCase& c) {
  RunOptions o;
  o.seed = c.seed;
  o.distribution = c.distribution;
  Session session(device, o);
  session.prepare(c.n);
  return session.run(r, c.block, false);
}

std::optional<std::string> failure_of(const CaseResult& r, const GradeCase& c) {
  const Check& k = r.check;
  // The harness fills the output with 0xFF bytes before every run: that NaN back means no write.
  if (std::isnan(k.got) && std::bit_cast<std::uint32_t>(static_cast<float>(k.got)) == 0xFFFFFFFFu)
    return "expected " + general(k.reference.sum, 9) + ", but the output was never written (it still holds the poison NaN)";
  if (c.exact && k.got != k.reference.sum)
    return "expected exactly " + general(k.reference.sum, 9) + " (integer data: every partial sum is exact), got " +
           general(k.got, 9);
  if (!k.verified)
    return "expected " + general(k.reference.sum, 9) + ", got " + general(k.got, 9) + " (|error| " +
           general(std::abs(k.got - k.reference.sum), 3) + " > tolerance " + general(k.tolerance, 3) + ")";
  return std::nullopt;
}

namespace {

std::string label(const Plan& r, const GradeCase& c) {
  return (r.variant.empty() ? "" : "variant " + std::string(r.variant) + " ") + describe(c);
}

// Runs the cases until one fails; returns that failure (or nullopt) and counts the cases run.
std::optional<std::string> first_failure(Device& device, const Plan& r, const std::vector<GradeCase>& cases,
                                         std::size_t& count, const std::function<void(const std::string&)>& progress) {
  for (const GradeCase& c : cases) {
    progress(label(r, c));
    ++count;
    try {
      if (auto why = failure_of(run_graded_case(device, r, c), c)) return label(r, c) + ": " + *why;
    } catch (const std::exception& e) {  // the simulator's report: which barrier, block and thread
      return label(r, c) + ": " + e.what();
    }
  }
  return std::nullopt;
}

}  // namespace

Grade grade_plans(Device& device, const std::vector<Plan>& plans, const RunOptions& options,
                     const std::function<void(const std::string&)>& progress) {
  Grade g;
  const auto cases = graded_cases(device.backend() == Backend::gpu);
  for (const Plan& r : plans) {
    if (r.backend != device.backend()) continue;
    if (auto why = first_failure(device, r, cases, g.cases_run, progress)) {
      g.failure = *why;
      return g;
    }
  }
  if (device.backend() == Backend::sim) {
    // A kernel can be right only because threads happen to run in lane order. The same cases up to
    // 2^16+1, with the threads of each block resumed in the other orders, expose that race.
    std::vector<GradeCase> small;
    for (const GradeCase& c : cases)
      if (c.n <= (1u << 16) + 1) small.push_back(c);
    for (SimSchedule s : {SimSchedule::reverse_lanes, SimSchedule::shuffled}) {
      RunOptions o = options;
      o.schedule = s;
      apply_simulator_options(o);
      for (const Plan& r : plans) {
        if (r.backend != device.backend()) continue;
        if (auto why = first_failure(device, r, small, g.cases_run, progress)) {
          g.failure = std::string("right in lane order, wrong when the threads run in ") +
                      (s == SimSchedule::shuffled ? "shuffled" : "reverse") +
                      " order: a race (a read that no barrier orders after the write it needs). " + *why;
          apply_simulator_options(options);
          return g;
        }
      }
    }
    apply_simulator_options(options);
  }
  g.passed = true;
  return g;
}

}  // namespace rl

#include "common/host/grading.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <exception>
#include <iterator>
#include <span>
#include <string_view>

#include "common/host/launch_observer.h"
#include "common/host/sim_bridge.h"
#include "common/host/table.h"
#include "common/sim/runtime.h"

namespace rl {

std::vector<std::uint64_t> graded_sizes(bool huge) {
  std::vector<std::uint64_t> s{0, 1, 31, 32, 33, 255, 256, 257, 1000, (1u << 16) + 1, 1u << 20};
  if (huge) s.push_back((1u << 24) + 3);
  return s;
}

namespace {

// splitmix64's finaliser: each of the three seeds drawn apart from one base.
std::uint64_t mixed(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<GradeCase> graded_cases(bool huge, std::uint64_t base_seed) {
  std::uint64_t seeds[std::size(grade_seeds)];
  for (std::size_t i = 0; i < std::size(seeds); ++i)
    seeds[i] = base_seed == 0 ? grade_seeds[i] : mixed(base_seed + i);
  std::vector<GradeCase> cases;
  for (std::uint64_t n : graded_sizes(huge)) {
    for (std::uint64_t seed : seeds) {
      // big sizes once: they cover every block anyway
      if (n > (1u << 16) && seed != seeds[0]) continue;
      cases.push_back({n, 256, seed, Distribution::uniform, false});
    }
    // Exact data: integers 1..8 see a single lost element up to 2^20 (beyond, their sums pass
    // 2^24); spikes see a lost run of 256 elements at any size, where the tolerance above cannot.
    if (n <= (1u << 20)) cases.push_back({n, 256, seeds[1], Distribution::integers, true});
    cases.push_back({n, 256, seeds[0], Distribution::spikes, true});
  }
  for (unsigned block : {32u, 64u, 128u, 512u, 1024u})
    for (std::uint64_t n :
         {std::uint64_t{block} + 1, std::uint64_t{1000}, std::uint64_t{block} * 67 - 3})
      cases.push_back({n, block, seeds[2], Distribution::positive, false});
  return cases;
}

std::string describe(const GradeCase& c) {
  return "n=" + std::to_string(c.n) + " block=" + std::to_string(c.block) +
         " seed=" + std::to_string(c.seed) + " " + std::string(to_string(c.distribution));
}

CaseResult run_graded_case(Device& device, const Plan& r, const GradeCase& c) {
  RunOptions o;
  o.seed = c.seed;
  o.distribution = c.distribution;
  Session session(device, o);
  session.prepare(c.n);
  return session.run(r, c.block, false);
}

std::string_view to_string(BugClass b) {
  switch (b) {
    case BugClass::race:
      return "race";
    case BugClass::barrier:
      return "barrier not reached";
    case BugClass::out_of_range:
      return "out of range";
    case BugClass::never_written:
      return "never written";
    case BugClass::hang:
      return "hang";
    case BugClass::lost_input:
      return "lost input";
    case BugClass::integer_only:
      return "wrong on integer data only";
    case BugClass::thread_order:
      return "wrong only in some thread order";
    case BugClass::too_slow:
      return "too slow";
    case BugClass::not_the_idea:
      return "not the lesson's idea";
    case BugClass::crash:
      return "crash";
  }
  return "?";
}

std::string_view bug_tag(BugClass b) {
  switch (b) {
    case BugClass::race:
      return "race";
    case BugClass::barrier:
      return "barrier";
    case BugClass::out_of_range:
      return "out-of-range";
    case BugClass::never_written:
      return "never-written";
    case BugClass::hang:
      return "hang";
    case BugClass::lost_input:
      return "lost-input";
    case BugClass::integer_only:
      return "integer-only";
    case BugClass::thread_order:
      return "thread-order";
    case BugClass::too_slow:
      return "too-slow";
    case BugClass::not_the_idea:
      return "idea";
    case BugClass::crash:
      return "crash";
  }
  return "?";
}

std::optional<BugClass> parse_bug_tag(std::string_view tag) {
  for (BugClass b : all_bug_classes)
    if (bug_tag(b) == tag) return b;
  return std::nullopt;
}

std::string_view bug_meaning(BugClass b) {
  switch (b) {
    case BugClass::race:
      return "two threads touch one location, at least one writing, with no barrier between them "
             "(both accesses "
             "are named)";
    case BugClass::barrier:
      return "a __syncthreads or warp collective that some threads never reach, or reach at "
             "another line";
    case BugClass::out_of_range:
      return "an index outside the memory it is meant for";
    case BugClass::never_written:
      return "the kernel never stored its result where the plan reads it";
    case BugClass::hang:
      return "a loop that never ends, or threads waiting for others that never come";
    case BugClass::lost_input:
      return "the total is off by more than rounding allows: input was skipped or added twice";
    case BugClass::integer_only:
      return "within rounding on random data, but not exact on whole numbers: a few elements "
             "skipped or added "
             "twice";
    case BugClass::thread_order:
      return "right only because the threads ran in lane order: a race the detector could not see";
    case BugClass::too_slow:
      return "every result is right, but the kernel misses the lesson's speed target (on the "
             "simulator: the arithmetic that predicts it)";
    case BugClass::not_the_idea:
      return "every result is right, but not by the lesson's idea: what the grade measures of it "
             "(a trace of the kernel, a count the simulator kept, the chain of combines behind "
             "an output, how a call waited or which GPUs it wrote) still shows the flaw the "
             "lesson removes";
    case BugClass::crash:
      return "the kernel or the program failed in another way (see the message)";
  }
  return "?";
}

BugClass classify_kernel_error(std::string_view what) {
  const auto has = [&](std::string_view s) { return what.find(s) != std::string_view::npos; };
  if (has("racecheck:")) return BugClass::race;
  if (has("out of range") || has("past the end of dynamic shared memory") ||
      has("memory it does not own"))
    return BugClass::out_of_range;
  if (has("is not reached by") || has("wait at different") || has("never completes") ||
      has("deadlock") || has("named in the mask exited") || has("is not in the mask") ||
      has("named in the mask do not exist"))
    return BugClass::barrier;
  return BugClass::crash;
}

BugClass classify_failure_line(std::string_view line) {
  const BugClass b = classify_kernel_error(line);
  if (b != BugClass::crash || line.find("sim: ") != std::string_view::npos) return b;
  return line.find("never written") != std::string_view::npos ? BugClass::never_written
                                                              : BugClass::lost_input;
}

BugClass classify_judged(std::string& line) {
  const std::size_t at = line.find(idea_mark);
  if (at == std::string::npos) return classify_failure_line(line);
  line.erase(at, idea_mark.size());
  return BugClass::not_the_idea;
}

std::vector<std::string_view> bug_keywords(BugClass b) {
  switch (b) {
    case BugClass::race:
    case BugClass::thread_order:
      return {"__syncwarp", "__syncthreads", "barrier", "lock-step", "lockstep", "race"};
    case BugClass::barrier:
      return {"outside the `if`", "outside any `if`", "every lane", "whole block",
              "__syncthreads",    "__syncwarp",       "barrier"};
    case BugClass::out_of_range:
      return {"never past", "past the", "out of range", "bound", "< n", "tid + stride <"};
    case BugClass::never_written:
      return {"out[", "partials[", "store", "writes the", "write the"};
    case BugClass::hang:
      return {"halv", "half", "down to", "loop", "stride"};
    case BugClass::lost_input:
    case BugClass::integer_only:
      return {"every element", "twice", "grid", "stride", "tail", "< n", "load"};
    case BugClass::too_slow:
      return {"in flight", "latency", "little"};
    case BugClass::not_the_idea:
      return {"bank", "contiguous", "warp", "shuffle", "__syncwarp", "record", "replay", "graph"};
    case BugClass::crash:
      return {};
  }
  return {};
}

namespace {

// "short by 3" / "over by 2": how far an exact result is from the exact total, in whole units.
std::string whole_difference(double got, double expected) {
  const double d = got - expected;
  if (!std::isfinite(d) || d != std::floor(d)) return "";
  return d < 0 ? "short by " + general(-d, 9) : "over by " + general(d, 9);
}

}  // namespace

std::optional<Failure> diagnose(const CaseResult& r, const GradeCase& c) {
  const Check& k = r.check;
  // The harness fills the output with 0xFF bytes before every run: that NaN back means no write.
  if (std::isnan(k.got) && std::bit_cast<std::uint32_t>(static_cast<float>(k.got)) == 0xFFFFFFFFu)
    return Failure{BugClass::never_written,
                   "expected " + general(k.reference.sum, 9) +
                       ", but the output was never written (it still holds the poison NaN)"};
  if ((c.exact || k.reference.exact) && k.got != k.reference.sum) {
    const std::string off = whole_difference(k.got, k.reference.sum);
    if (c.distribution == Distribution::spikes)
      return Failure{BugClass::lost_input, "expected exactly " + general(k.reference.sum, 9) +
                                               " (spikes: a 1 every " +
                                               std::to_string(spike_spacing) +
                                               "th element, every partial sum exact), got " +
                                               general(k.got, 9) + (off.empty() ? "" : ", " + off) +
                                               ": every " + std::to_string(spike_spacing) +
                                               " consecutive elements hold one spike, and so does "
                                               "the last element, so a block's share was"
                                               " skipped or added twice"};
    return Failure{BugClass::integer_only, "expected exactly " + general(k.reference.sum, 9) +
                                               " (integer data: every partial sum is exact), got " +
                                               general(k.got, 9) +
                                               (off.empty() ? "" : " (" + off + ")")};
  }
  if (!k.verified)
    return Failure{BugClass::lost_input, "expected " + general(k.reference.sum, 9) + ", got " +
                                             general(k.got, 9) + " (|error| " +
                                             general(std::abs(k.got - k.reference.sum), 3) +
                                             " > tolerance " + general(k.tolerance, 3) + ")"};
  return std::nullopt;
}

std::optional<std::string> failure_of(const CaseResult& r, const GradeCase& c) {
  if (auto f = diagnose(r, c)) return f->why;
  return std::nullopt;
}

namespace {

std::string label(const Plan& r, const GradeCase& c) {
  return (r.variant.empty() ? "" : "variant " + std::string(r.variant) + " ") + describe(c);
}

// Runs the cases until one fails; returns that failure (or nullopt) and counts the cases run.
std::optional<Failure> first_failure(const CaseRunner& run, int pass, std::size_t plan_index,
                                     const Plan& r, const std::vector<GradeCase>& cases,
                                     std::size_t& count,
                                     const std::function<void(const std::string&)>& progress) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const GradeCase& c = cases[i];
    progress(label(r, c));
    ++count;
    try {
      if (auto f = diagnose(run(pass, plan_index, i, r, c), c))
        return Failure{f->bug, label(r, c) + ": " + f->why};
      // the simulator's report: which race, barrier, block and thread
    } catch (const std::exception& e) {
      return Failure{classify_kernel_error(e.what()), label(r, c) + ": " + e.what()};
    }
  }
  return std::nullopt;
}

}  // namespace

Grade grade_with(const std::vector<Plan>& plans, Backend backend, std::uint64_t base_seed,
                 const CaseRunner& run, const std::function<void(const std::string&)>& progress) {
  Grade g;
  const auto cases = graded_cases(backend == Backend::gpu, base_seed);
  for (std::size_t p = 0; p < plans.size(); ++p) {
    if (plans[p].backend != backend) continue;
    if (auto f = first_failure(run, 0, p, plans[p], cases, g.cases_run, progress)) {
      g.failure = f->why;
      g.bug = f->bug;
      return g;
    }
  }
  if (backend == Backend::sim) {
    // A kernel can be right only because threads happen to run in lane order. The same cases up to
    // 2^16+1, with the threads of each block resumed in the other orders, expose that race.
    std::vector<GradeCase> small;
    for (const GradeCase& c : cases)
      if (c.n <= (1u << 16) + 1) small.push_back(c);
    for (const int pass : {1, 2}) {
      for (std::size_t p = 0; p < plans.size(); ++p) {
        if (plans[p].backend != backend) continue;
        if (auto f = first_failure(run, pass, p, plans[p], small, g.cases_run, progress)) {
          // A kernel error here (a race the detector saw only in this order) keeps its own class.
          const bool wrong = f->bug == BugClass::lost_input || f->bug == BugClass::integer_only ||
                             f->bug == BugClass::never_written;
          g.bug = wrong ? BugClass::thread_order : f->bug;
          g.failure = std::string("right in lane order, wrong when the threads run in ") +
                      (pass == 2 ? "shuffled" : "reverse") +
                      " order: a race (a read that no barrier orders after the write it needs). " +
                      f->why;
          return g;
        }
      }
    }
  }
  g.passed = true;
  return g;
}

Grade grade_plans(Device& device, const std::vector<Plan>& plans, const RunOptions& options,
                  const std::function<void(const std::string&)>& progress, std::uint64_t base_seed,
                  const std::function<void(int pass, std::size_t plan, std::size_t index,
                                           const CaseResult*, const char* error)>& seen) {
  int schedule_pass = 0;
  const CaseRunner run = [&](int pass, std::size_t p, std::size_t i, const Plan& r,
                             const GradeCase& c) {
    if (pass != schedule_pass) {
      RunOptions o = options;
      o.schedule = pass == 2 ? SimSchedule::shuffled : SimSchedule::reverse_lanes;
      apply_simulator_options(o);
      schedule_pass = pass;
    }
    try {
      CaseResult result = run_graded_case(device, r, c);
      if (seen) seen(pass, p, i, &result, nullptr);
      return result;
    } catch (const std::exception& e) {
      if (seen) seen(pass, p, i, nullptr, e.what());
      throw;
    }
  };
  Grade g = grade_with(plans, device.backend(), base_seed, run, progress);
  if (schedule_pass != 0) apply_simulator_options(options);
  return g;
}

namespace {
constexpr std::uint64_t replay_n = 1000;
std::uint64_t replay_seed(std::uint64_t base_seed) {
  return base_seed == 0 ? grade_seeds[0] : mixed(base_seed);
}

RunOptions replay_options(std::uint64_t base_seed) {
  RunOptions o;
  o.seed = replay_seed(base_seed);
  return o;
}

// A plan called at replay_n on the input of replay_seed(base_seed), with an output and scratch of
// its own: made once (lesson 15's first call records; a library does its first-use work), waited
// for, its output then poisoned. What the replay and the held stream go on from.
struct OneCall {
  OneCall(Device& device, const Plan& plan, std::uint64_t base_seed)
      : session(device, replay_options(base_seed)),
        block(block_for(plan, 256, false)),
        out(device, sizeof(float)),
        scratch(device, plan.scratch_bytes(replay_n, block, device.shape())) {
    session.prepare(replay_n);
    call = {session.device_input(), out.get<float>(), replay_n,       block,
            scratch.get(),          device.shape(),   device.stream()};
    plan.reduce(call);
    device.synchronize();
    device.poison(out.get(), sizeof(float));
  }
  Session session;
  unsigned block;
  DeviceBuffer out, scratch;
  ReduceCall call;
};
}  // namespace

ReplayFigures replay_figures(Device& device, const Plan& plan, std::uint64_t base_seed) {
  OneCall first(device, plan, base_seed);
  ReplayFigures f;
  set_launch_observer([&](const LaunchShape&) { ++f.launches; });
  try {
    plan.reduce(first.call);  // the second replays: nothing of its own reaches the stream
    device.synchronize();
  } catch (...) {
    set_launch_observer({});
    throw;
  }
  set_launch_observer({});
  device.download(&f.got, first.out.get(), sizeof(float));
  return f;
}

HeldFigures held_figures(Device& device, const Plan& plan, std::uint64_t base_seed) {
  OneCall first(device, plan, base_seed);
  HeldFigures f;
  f.held_ms = held_ms;
  device.hold_stream(held_ms);
  const auto start = std::chrono::steady_clock::now();
  plan.reduce(first.call);
  f.call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  device.synchronize();
  device.download(&f.got, first.out.get(), sizeof(float));
  return f;
}

namespace {
// The sum one call (OneCall) should have left, where `got` is outside the plan's tolerance of it;
// nullopt where `got` is right. Its own reference: replay_n floats drawn from base_seed again.
std::optional<double> one_call_wrong_total(double got, const Plan& plan, std::uint64_t base_seed,
                                           const DeviceShape& shape) {
  std::vector<float> input(replay_n);
  fill_run_input(input, replay_seed(base_seed), Distribution::uniform);
  const Reference reference = reference_sum(input);
  if (within_tolerance(got, reference, plan.depth(replay_n, block_for(plan, 256, false), shape)))
    return std::nullopt;
  return reference.sum;
}
}  // namespace

std::optional<std::string> held_judged(const HeldFigures& f, const Plan& plan,
                                       std::uint64_t base_seed, const DeviceShape& shape) {
  const std::string what = "n=" + std::to_string(replay_n) + ", one call on a stream held for " +
                           general(held_ms, 4) + " ms: ";
  if (f.held_ms != held_ms)
    return what + "the figures handed back held it for " + general(f.held_ms, 4) + " ms";
  if (!(f.call_ms >= 0.0) || f.call_ms >= held_ms / 2)
    return what + "the call took " + general(f.call_ms, 4) +
           " ms to return: it waited for the GPU (the stream's work before it), where it should "
           "only enqueue its work, its temporary storage's allocation and release included";
  if (const auto expected = one_call_wrong_total(f.got, plan, base_seed, shape))
    return what + "its total was " + general(f.got, 9) + " where " + general(*expected, 9) +
           " is expected";
  return std::nullopt;
}

namespace {
// The two calls' sizes: several blocks each, ragged ends, and different grids and partials, so a
// call that reads the other's partials or takes its tickets cannot come out right by chance.
constexpr std::uint64_t queued_n[2] = {(std::uint64_t{1} << 16) + 1, (std::uint64_t{1} << 15) + 3};
}  // namespace

bool is_queued_graded(const Plan& plan) {
  return plan.way.programmatic && plan.way.launch == LaunchPath::stream && !plan.replays;
}

QueuedFigures queued_figures(Device& device, const Plan& plan, std::uint64_t base_seed) {
  RunOptions o;
  o.seed = replay_seed(base_seed);
  Session session(device, o);
  session.prepare(queued_n[0]);  // the second call sums a prefix of the same input
  const unsigned block = block_for(plan, 256, false);
  const DeviceShape shape = device.shape();
  DeviceBuffer first(device, sizeof(float)), second(device, sizeof(float));
  DeviceBuffer scratch(device, std::max(plan.scratch_bytes(queued_n[0], block, shape),
                                        plan.scratch_bytes(queued_n[1], block, shape)));
  device.poison(first.get(), sizeof(float));
  device.poison(second.get(), sizeof(float));
  if (scratch.bytes()) device.poison(scratch.get(), scratch.bytes());
  device.synchronize();
  QueuedFigures f;
  try {
    // No wait between the two: the second call queues behind the first, as the ladder's do.
    plan.reduce({session.device_input(), first.get<float>(), queued_n[0], block, scratch.get(),
                 shape, device.stream()});
    plan.reduce({session.device_input(), second.get<float>(), queued_n[1], block, scratch.get(),
                 shape, device.stream()});
    device.synchronize();
  } catch (const std::exception& e) {
    f.error = e.what();
    return f;
  }
  device.download(&f.first, first.get(), sizeof(float));
  device.download(&f.second, second.get(), sizeof(float));
  if (device.backend() == Backend::sim) {
    const sim::EarlyRun early = sim::last_early_run();
    if (early.ran)
      f.early_barriers = static_cast<int>(early.barriers), f.early_waited = early.waited;
  }
  return f;
}

std::optional<Failure> queued_judged(const QueuedFigures& f, const Plan& plan,
                                     std::uint64_t base_seed, const DeviceShape& shape) {
  const unsigned block = block_for(plan, 256, false);
  const std::string what = "block=" + std::to_string(block) + ", two calls queued back to back " +
                           "(n=" + std::to_string(queued_n[0]) + ", then its first " +
                           std::to_string(queued_n[1]) + "), the second overlapping the first: ";
  if (!f.error.empty()) return Failure{classify_kernel_error(f.error), what + f.error};
  std::vector<float> input(queued_n[0]);
  fill_run_input(input, replay_seed(base_seed), Distribution::uniform);
  const float got[2] = {f.first, f.second};
  for (int k = 0; k < 2; ++k) {
    const Reference reference = reference_sum(std::span<const float>(input.data(), queued_n[k]));
    if (within_tolerance(got[k], reference, plan.depth(queued_n[k], block, shape))) continue;
    return Failure{std::isnan(got[k]) ? BugClass::never_written : BugClass::lost_input,
                   what + "the " + (k == 0 ? "first" : "second") + " call's total is " +
                       general(got[k], 9) + " where " + general(reference.sum, 9) +
                       " is expected: a call must wait for the one before it "
                       "(cudaGridDependencySynchronize) before it touches what that call writes"};
  }
  if (plan.idea.works_before_wait && f.early_barriers >= 0 &&
      (f.early_barriers == 0 || !f.early_waited))
    return Failure{
        BugClass::not_the_idea,
        what +
            (f.early_waited ? "the second call's first block reached no __syncthreads before "
                              "its cudaGridDependencySynchronize(): it waited before its own "
                              "block's sum, whose input no call writes"
                            : "the second call's first block never waited for the first") +
            "; the wait belongs after the work that needs nothing of the call before, "
            "and before the first touch of what that call writes"};
  return std::nullopt;
}

std::optional<std::string> replay_judged(const ReplayFigures& f, const Plan& plan,
                                         std::uint64_t base_seed, const DeviceShape& shape) {
  const unsigned block = block_for(plan, 256, false);
  const std::string what = "n=" + std::to_string(replay_n) + " block=" + std::to_string(block) +
                           ", called twice with the same arguments: ";
  if (f.launches > 0)
    return what + "the second call launched " + std::to_string(f.launches) +
           (f.launches == 1 ? " kernel" : " kernels") +
           " itself; it should replay what the first call recorded";
  if (const auto expected = one_call_wrong_total(f.got, plan, base_seed, shape))
    return what + "the second call's replay left " + general(f.got, 9) + " where " +
           general(*expected, 9) + " is expected";
  return std::nullopt;
}

}  // namespace rl

#include "lessons/17_common_bugs/questions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/host/cli.h"
#include "common/host/grading.h"
#include "common/host/harness.h"
#include "common/host/reference.h"
#include "common/host/sim_bridge.h"
#include "lessons/17_common_bugs/bugs.h"

namespace rl::bug_reports {
namespace {

// Question 1's case, as `17_common_bugs --bug NAME --backend sim --no-sim-racecheck --n 1000`
// runs it: the default block and seed (which also seeds the shuffled order).
constexpr std::uint64_t order_n = 1000;
// Three of the four bugs whose threads read a shared slot that nothing orders after its write; the
// README says already which orders give missing_syncwarp the right total.
constexpr std::string_view races[] = {"missing_barrier_in_loop", "barrier_only_above_warp",
                                      "volatile_tail"};
struct Order {
  SimSchedule schedule;
  const char* name;  // as --sim-schedule takes it
};
constexpr Order orders[] = {{SimSchedule::lane_order, "lane-order"},
                            {SimSchedule::reverse_lanes, "reverse-lanes"},
                            {SimSchedule::shuffled, "shuffled"}};

// Question 2: dropped_block at n = 2^k + 255 for k in this range, on the default seed's uniform
// floats in 256-thread blocks. At 2^8 + 255 its one block already leaves 255 values unread. Up to
// 2^26: the input is made on the host to be summed, a second or so.
constexpr int first_log2 = 8, last_log2 = 26;
constexpr std::uint64_t unread = 255;

// The course's own bug of that name, compiled for the simulator. broken.cuh is never replaced by a
// student's file (CMakeLists.txt), so this is the kernel the lesson hands out, in any build.
Plan broken_plan(std::string_view name) {
  for (const Plan& p : bugs::broken_plans<Backend::sim>())
    if (p.variant == name) return p;
  throw std::logic_error("lesson 17 has no broken plan named " + std::string(name));
}

// The schedules under which the bug's total at order_n is right, the detector off: each run on
// the simulator, as in the lesson's own command (a few milliseconds each, the same bits every
// time). "none" where every order shows the race.
std::string right_orders(std::string_view name) {
  const Plan plan = broken_plan(name);
  RunOptions o;
  o.backend = Backend::sim;
  o.sim_racecheck = false;
  std::ostringstream banner;  // open_device names the backend: not part of an answer
  const std::unique_ptr<Device> device = open_device(o, banner);
  const GradeCase c{order_n, o.block, o.seed, Distribution::uniform, false};
  std::string text;
  for (const Order& order : orders) {
    o.schedule = order.schedule;
    apply_simulator_options(o);
    bool right = false;
    try {
      right = !diagnose(run_graded_case(*device, plan, c), c);
    } catch (const std::exception&) {  // a kernel error is no right total either
    }
    if (right) text += (text.empty() ? "" : ", ") + std::string(order.name);
  }
  o.schedule = SimSchedule::lane_order;
  apply_simulator_options(o);
  return text.empty() ? "none" : text;
}

// The same schedules in any order: a set of them, not a sequence.
bool same_orders(const std::string& given, const std::string& right) {
  std::vector<std::string> g = answer_words(given), r = answer_words(right);
  std::sort(g.begin(), g.end());
  std::sort(r.begin(), r.end());
  return g == r;
}

// The smallest 2^k from which dropped_block passes at every n = 2^k + 255 up to 2^26 + 255: where
// the 255 values it never reads sum to less than the rounding bound the check allows (reference.h's
// tolerance, at the plan's own depth). The kernel adds the first 2^k values (far inside the bound
// itself), so its total is off by just what it left unread. Worked out from the seeded input
// rather than run, which would take the simulator a minute at 2^26. Each value is made once, in
// one slice: [0, 2^8), then [2^(k-1), 2^k) and the 255 past 2^k.
std::string hiding_from() {
  const Plan plan = broken_plan("dropped_block");
  const RunOptions o;
  // Values [first, first + count) added into `r`, 2^22 at a time: 16 MiB of floats at most.
  const auto add = [&](Reference& r, std::uint64_t first, std::uint64_t count) {
    constexpr std::uint64_t slice = std::uint64_t{1} << 22;
    for (std::uint64_t done = 0; done < count; done += slice) {
      const Reference part = reference_of_stream(o.seed, Distribution::uniform, first + done,
                                                 std::min(slice, count - done));
      r.sum += part.sum;
      r.abs_sum += part.abs_sum;
      r.n += part.n;
    }
  };
  Reference head;  // the 2^k values it reads
  add(head, 0, std::uint64_t{1} << first_log2);
  int from = 0;  // 0: it is caught at the last size looked at
  for (int k = first_log2; k <= last_log2; ++k) {
    const std::uint64_t read = std::uint64_t{1} << k, n = read + unread;
    if (k > first_log2) add(head, read / 2, read / 2);
    Reference lost;  // the 255 it never reads
    add(lost, read, unread);
    const Reference whole{head.sum + lost.sum, head.abs_sum + lost.abs_sum, n, false};
    const bool hidden =
        std::fabs(lost.sum) <= tolerance(whole, plan.depth(n, o.block, DeviceShape{}));
    if (!hidden)
      from = 0;
    else if (from == 0)
      from = k;
  }
  if (from == 0)
    throw std::logic_error("lesson 17: dropped_block is caught at 2^" + std::to_string(last_log2) +
                           " + 255: question 2 has no answer");
  return "2^" + std::to_string(from);
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  for (const std::string_view bug : races)
    q.push_back({"orders_" + std::string(bug),
                 "The simulator runs each thread alone up to its next __syncthreads or "
                 "__syncwarp, in the schedule's order. For every read of another thread's slot, "
                 "ask whether that thread has run far enough, and not too far, when the reader "
                 "runs: what has it added into its own slot by then?",
                 [bug] { return right_orders(bug); }, same_orders});
  q.push_back({"hides_from",
               "Weigh two numbers at each size. The sum of the 255 values it never reads, uniform "
               "in (-1, 1): a random walk, about the square root of 255 / 3 either way at any "
               "size. And the bound, which about doubles with N: gamma(depth) times the sum of |x| "
               "over the whole input, at the depth of lesson 03's passes (tree_depth, "
               "common/grid_size.h). Within one power of two.",
               hiding_from, size_within(1)});
  return q;
}

}  // namespace rl::bug_reports

#include "viewer/run_model.h"

#ifndef __EMSCRIPTEN__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "common/host/course.h"
#include "common/host/device.h"
#include "common/host/session.h"
#include "common/host/sim_bridge.h"
#include "common/host/sim_budget.h"
#include "common/host/trace_run.h"
#include "common/sim/options.h"
#include "common/sim/run_hook.h"
#include "lessons/17_common_bugs/bugs.h"

#ifdef __EMSCRIPTEN__
#include "common/sim/fiber.h"
#endif

namespace rl::viewer {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string two_digits(int lesson) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", lesson);
  return buf;
}

std::vector<RunChoice> make_choices() {
  std::vector<RunChoice> out;
  for (const Plan& p : ladder_plans()) {
    if (p.backend != Backend::sim) continue;
    RunChoice c;
    c.plan = &p;
    c.key = std::string(p.slug) + (p.variant.empty() ? "" : "/" + std::string(p.variant));
    c.label = two_digits(p.lesson) + " " + std::string(p.title) +
              (p.variant.empty() ? "" : " (" + std::string(p.variant) + ")");
    c.solution = find_plan(p.lesson, Backend::sim);
    out.push_back(c);
  }
  // The side lesson: its fixes, then its broken kernels, each compared with its fix.
  static const Plans fixes = lesson_plans<17, Backend::sim>();
  static const Plans broken = bugs::broken_plans<Backend::sim>();
  for (const Plan& p : fixes) {
    RunChoice c;
    c.plan = &p;
    c.key = std::string(p.slug) + "/fixed/" + std::string(p.variant);
    c.label = two_digits(p.lesson) + " fixed: " + std::string(p.variant);
    c.solution = &p;
    out.push_back(c);
  }
  for (const Plan& p : broken) {
    RunChoice c;
    c.plan = &p;
    c.key = std::string(p.slug) + "/" + std::string(p.variant);
    c.label = two_digits(p.lesson) + " broken: " + std::string(p.variant);
    c.broken = true;
    for (const Plan& f : fixes)
      if (f.variant == p.variant) c.solution = &f;
    out.push_back(c);
  }
  return out;
}

// Thrown by the run hook to end a run early; the launch fails with it.
struct Stopped {
  std::string why;
};

}  // namespace

const std::vector<RunChoice>& run_choices() {
  static const std::vector<RunChoice> choices = make_choices();
  return choices;
}

int find_choice(const std::string& key) {
  const auto& cs = run_choices();
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (cs[i].key == key) return static_cast<int>(i);
  return -1;
}

const char* to_string(RunOutcome::Status s) {
  switch (s) {
    case RunOutcome::Status::done:
      return "done";
    case RunOutcome::Status::failed:
      return "failed";
    case RunOutcome::Status::refused:
      return "refused";
    case RunOutcome::Status::cancelled:
      return "cancelled";
  }
  return "?";
}

std::string check_request(const RunRequest& r, const RunLimits& limits) {
  if (r.choice < 0 || r.choice >= static_cast<int>(run_choices().size()))
    return "no such kernel (choice " + std::to_string(r.choice) + ")";
  if (r.n == 0) return "n must be at least 1";
  if (r.n > limits.max_n)
    return "n = " + std::to_string(r.n) + " is over this viewer's limit of " +
           size_text(limits.max_n) + " elements";
  if (r.block < 32 || r.block > 1024 || (r.block & (r.block - 1)) != 0)
    return "block must be a power of two from 32 to 1024 (got " + std::to_string(r.block) + ")";
  return "";
}

// One run in flight: what it was asked, how far it got, and what it leaves.
struct RunModel::Flight {
  RunRequest request;
  RunLimits limits;
  Clock::time_point started = Clock::now();
  std::atomic<bool> cancel{false};
  std::atomic<bool> finished{false};
  std::atomic<std::uint64_t> launches{0};
  std::atomic<std::uint64_t> blocks_done{0};
  std::atomic<std::uint64_t> blocks{0};
  RunOutcome outcome;
#ifdef __EMSCRIPTEN__
  Clock::time_point slice_end{};
  sim::detail::StackPool stacks{std::size_t{4} << 20};
  sim::detail::Fiber fiber;
#else
  std::thread thread;
#endif

  void run();
};

namespace {

std::mutex flight_mutex;  // guards `flying` against a hook on another host thread
RunModel::Flight* flying = nullptr;

}  // namespace

// The simulator's hook while a run is in flight: progress, the page's turn, cancel and timeout.
static void on_sim_turn(std::uint64_t done, std::uint64_t blocks) {
  RunModel::Flight* f = flying;
  if (f == nullptr) return;
  if (blocks > 0) {
    const std::uint64_t before = f->blocks_done.exchange(done, std::memory_order_relaxed);
    if (done <= before || before == 0) f->launches.fetch_add(1);  // a launch began
    f->blocks.store(blocks, std::memory_order_relaxed);
  }
#ifdef __EMSCRIPTEN__
  if (Clock::now() >= f->slice_end) f->fiber.suspend();  // the page draws a frame
#endif
  if (f->cancel.load(std::memory_order_relaxed)) throw Stopped{"cancelled"};
  if (seconds_since(f->started) > f->limits.timeout_s)
    throw Stopped{"stopped after " + rough_duration(f->limits.timeout_s) +
                  ": the kernel had not finished (one that never ends?)"};
}

void RunModel::Flight::run() {
  const RunRequest& r = request;
  RunOutcome& o = outcome;
  const RunChoice& c = run_choices()[static_cast<std::size_t>(r.choice)];
  const sim::Options before = sim::options();
  try {
    RunOptions opts;
    opts.n = r.n;
    opts.n_given = true;
    opts.block = r.block;
    opts.block_given = true;
    opts.schedule = r.order;
    opts.sim_racecheck = r.racecheck;
    opts.sim_progress_s = 0;
#ifdef __EMSCRIPTEN__
    opts.sim_threads = 1;  // the page has one thread
#else
    // Every core, as the lesson executable takes: the run's threads yield to the drawing by their
    // priority (start(): the lowest), not by leaving it a core, so a run takes the cores whenever
    // the window does not draw (hardware_concurrency is 0 where it is not known).
    opts.sim_threads = std::max(1u, std::thread::hardware_concurrency());
#endif
    std::unique_ptr<Device> device = make_sim_device();
    apply_simulator_options(opts);
    const std::string what =
        "lesson " + two_digits(c.plan->lesson) + "'s kernel over " + size_text(r.n) + " elements";
    if (r.n > sim_measure_above) {  // as the CLI: small runs are not estimated
      SimEstimate e;
      e.add(plan_cost(*device, *c.plan, r.block), r.n, 1);
      if (e.seconds() > limits.max_seconds) {
        o.status = RunOutcome::Status::refused;
        o.line = "refused: the simulator would take about " + rough_duration(e.seconds()) +
                 " for " + what + " (cost measured just now), over this viewer's limit of " +
                 rough_duration(limits.max_seconds) + ": a smaller n runs it";
        sim::set_options(before);
        return;
      }
    }
    Session session(*device, opts);
    session.prepare(r.n);
    launches = 0;
    blocks_done = 0;
    const CaseResult cr = session.run(*c.plan, r.block, false);
    o.run_seconds = seconds_since(started);
    o.total = cr.check.got;
    o.reference = cr.check.reference.sum;
    o.tolerance = cr.check.tolerance;
    o.verified = cr.check.verified;
    char verdict[256];
    if (o.verified)
      std::snprintf(verdict, sizeof verdict, "correct: total %.9g, reference %.9g (%.2f s)",
                    o.total, o.reference, o.run_seconds);
    else
      std::snprintf(verdict, sizeof verdict,
                    "WRONG: total %.9g, reference %.9g, off by %.3g (tolerance %.3g)", o.total,
                    o.reference, std::fabs(o.total - o.reference), o.tolerance);
    o.line = verdict;
    if (r.n <= limits.trace_max_n && c.plan->reduce_traced) {
      o.trace = record_trace(session, *c.plan, r.block).dump();
      if (r.with_solution && c.solution && c.solution->reduce_traced) {
        RunOptions plain = opts;  // the solution as it is meant to run
        plain.schedule = SimSchedule::lane_order;
        plain.sim_racecheck = false;
        apply_simulator_options(plain);
        o.solution_trace = record_trace(session, *c.solution, r.block).dump();
      }
    } else if (r.n > limits.trace_max_n) {
      o.line += "; no tree above n = " + size_text(limits.trace_max_n);
    }
    o.status = RunOutcome::Status::done;
  } catch (const Stopped& s) {
    o.status = RunOutcome::Status::cancelled;
    o.line = s.why;
#ifdef __EMSCRIPTEN__
  } catch (const std::system_error& e) {  // std::thread: the page has no threads
    o.status = RunOutcome::Status::failed;
    o.line =
        "this kernel needs host threads (the blocks of a cluster each run on one), which the "
        "web page does not have: run it in the native viewer or the lesson (" +
        one_line(e.what()) + ")";
#endif
  } catch (const std::exception& e) {
    o.status = RunOutcome::Status::failed;
    o.line = one_line(e.what());
  }
  sim::set_options(before);
  o.seconds = seconds_since(started);
}

RunModel::RunModel(RunLimits limits) : limits_(limits) {}

RunModel::~RunModel() {
  if (!busy_) return;
  cancel();
  while (poll()) {
  }
}

bool RunModel::start(const RunRequest& r) {
  if (busy_) return false;
  outcome_.reset();
  if (std::string why = check_request(r, limits_); !why.empty()) {
    outcome_ = RunOutcome{};
    outcome_->status = RunOutcome::Status::refused;
    outcome_->line = "refused: " + why;
    return false;
  }
  flight_ = std::make_unique<Flight>();
  flight_->request = r;
  flight_->limits = limits_;
  {
    std::lock_guard lock(flight_mutex);
    flying = flight_.get();
  }
  sim::set_run_hook(&on_sim_turn);
  busy_ = true;
#ifdef __EMSCRIPTEN__
  flight_->fiber.start(
      flight_->stacks,
      [](void* arg) {
        auto* f = static_cast<Flight*>(arg);
        f->run();
        f->finished = true;
      },
      flight_.get());
#else
  Flight* f = flight_.get();
  f->thread = std::thread([f] {
    // The run yields to the drawing: this thread and the simulator's threads it starts (which
    // inherit it) run at the lowest priority, so the window keeps its frame rate on a machine
    // whose cores the run would otherwise take (Linux's nice value is a thread's own).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
    f->run();
    f->finished = true;
  });
#endif
  return true;
}

void RunModel::cancel() {
  if (flight_) flight_->cancel = true;
}

double run_slice_ms(double floor_ms, double rest_of_frame_ms) {
  return std::clamp(5.0 * rest_of_frame_ms, floor_ms, std::max(floor_ms, 300.0));
}

bool RunModel::poll(double slice_ms) {
  if (!busy_) {
    last_poll_end_ms_ = -1;
    return false;
  }
#ifdef __EMSCRIPTEN__
  if (!flight_->finished) {
    const auto ms = [] {
      return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
    };
    const double now = ms();
    const double slice =
        last_poll_end_ms_ < 0 ? slice_ms : run_slice_ms(slice_ms, now - last_poll_end_ms_);
    flight_->slice_end =
        Clock::now() + std::chrono::microseconds(static_cast<std::int64_t>(slice * 1000));
    flight_->fiber.resume();
    last_poll_end_ms_ = ms();
  }
#else
  (void)slice_ms;
#endif
  if (flight_->finished) finish();
  return busy_;
}

void RunModel::finish() {
#ifndef __EMSCRIPTEN__
  flight_->thread.join();
#endif
  sim::set_run_hook(nullptr);
  {
    std::lock_guard lock(flight_mutex);
    flying = nullptr;
  }
  outcome_ = std::move(flight_->outcome);
  flight_.reset();
  busy_ = false;
}

RunProgress RunModel::progress() const {
  RunProgress p;
  if (!flight_) return p;
  p.launches = flight_->launches.load();
  p.blocks_done = flight_->blocks_done.load();
  p.blocks = flight_->blocks.load();
  p.seconds = seconds_since(flight_->started);
  return p;
}

std::optional<RunOutcome> RunModel::take_outcome() {
  std::optional<RunOutcome> o = std::move(outcome_);
  outcome_.reset();
  return o;
}

}  // namespace rl::viewer

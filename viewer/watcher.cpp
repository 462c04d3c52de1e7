#include "viewer/watcher.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "common/trace/trace_loader.h"
#include "viewer/child_process.h"
#include "viewer/trace_compare.h"

namespace rl::viewer {
namespace {

namespace fs = std::filesystem;

std::string make_trace_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/reducelab-watch-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot make a folder for the traces under " + pattern);
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

Watcher::Watcher(WatchTarget target)
    : target_(std::move(target)),
      trace_dir_(make_trace_dir()),
      detector_(target_.watched),
      machine_(target_, trace_dir_),
      thread_([this] { work(); }) {}

Watcher::~Watcher() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;  // the command in flight is killed within a tenth of a second (run_command)
  }
  wake_.notify_all();
  thread_.join();
  std::error_code ec;
  fs::remove_all(trace_dir_, ec);
}

void Watcher::start_round() {
  std::lock_guard lock(mutex_);
  // Under the lock: the thread reads the machine between two commands.
  if (std::optional<Command> c = machine_.changed()) {
    next_ = std::move(c);
    wake_.notify_all();
  }
}

std::optional<RoundResult> Watcher::poll(double now_s) {
  if (detector_.poll(now_s)) start_round();
  std::lock_guard lock(mutex_);
  return std::exchange(ended_, std::nullopt);
}

void Watcher::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stop_ || next_; });
    if (stop_) return;
    const Command c = std::move(*next_);
    next_.reset();
    step_started_ = std::chrono::steady_clock::now();
    lock.unlock();  // the command runs without the lock: the window keeps asking for the status
    std::error_code ec;
    // An old trace must not pass for this round's when the run writes none.
    if (!c.writes.empty()) fs::remove(c.writes, ec);
    StepOutput out = run_command(c.argv, c.timeout_s, &stop_);
    if (!c.writes.empty() && fs::exists(c.writes, ec)) out.written = read_file(c.writes);
    lock.lock();
    if (stop_) return;
    const int before = machine_.result().round;
    next_ = machine_.finished(out);
    if (machine_.result().round != before) ended_ = machine_.result();
    wake_.notify_all();  // run_once waits for a round to end
  }
}

WatchStatus Watcher::status() const {
  std::lock_guard lock(mutex_);
  WatchStatus s;
  s.phase = machine_.phase();
  s.line = machine_.status_line();
  const RoundResult& r = machine_.result();
  s.verdict = r.line;
  s.hint = r.hint;
  s.note = r.trace_note;
  s.kind = r.kind;
  s.round = r.round;
  const bool busy = s.phase != Phase::idle && s.phase != Phase::shown;
  if (busy)
    s.busy_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - step_started_).count();
  return s;
}

RoundResult Watcher::run_once() {
  start_round();
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return machine_.phase() == Phase::shown; });
  ended_.reset();
  return machine_.result();
}

std::string describe_traces(const RoundResult& r) {
  if (r.trace.empty() || r.solution_trace.empty()) return r.trace_note;
  try {
    const Trace a = parse_trace(r.trace, "your trace");
    const Trace b = parse_trace(r.solution_trace, "the solution's trace");
    const TraceComparison c = compare_traces(a, b);
    std::string s = "yours " + std::to_string(a.events.size()) + " events, the solution's " +
                    std::to_string(b.events.size()) + "; ";
    if (!c.same_input) return s + "not the same input (" + c.input_differences + ")";
    s += "same input (n=" + std::to_string(a.n) + ", block " + std::to_string(a.block) + "); ";
    if (!c.first.found) return s + "no write differs";
    std::ostringstream v;
    v << "first difference: launch " << c.first.launch << ", block " << c.first.block << ", thread "
      << c.first.thread << ", " << c.first.location << ": ";
    if (c.first.event[0] >= 0)
      v << c.first.value[0];
    else
      v << "not written";
    v << " against ";
    if (c.first.event[1] >= 0)
      v << c.first.value[1];
    else
      v << "not written";
    return s + v.str();
  } catch (const std::exception& e) {  // TraceError: one line
    return std::string("a trace did not load: ") + e.what();
  }
}

}  // namespace rl::viewer

#pragma once
// Grading: the cases every lesson kernel must pass, shared by the Catch2 suites (which assert each
// one) and the student grader (which stops at the first failure and says why in one line).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/device.h"
#include "common/host/input.h"
#include "common/host/session.h"

namespace rl {

struct GradeCase {
  std::uint64_t n = 0;
  unsigned block = 256;
  std::uint64_t seed = 1;
  Distribution distribution = Distribution::uniform;
  // Exact data (integers up to 2^20, spikes at any size): every partial sum is exact, so the total
  // must be, bit for bit (the reference says so too: Reference::exact).
  bool exact = false;
};

inline constexpr std::uint64_t grade_seeds[] = {1, 20240601, 0x5eed5eedULL};

// {0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1, 2^20}, plus 2^24+3 when `huge`.
std::vector<std::uint64_t> graded_sizes(bool huge);

// In order, smallest first within each group: every size with three seeds (one above 2^16), then
// exact integer data at each size up to 2^20, then exact spikes (Distribution::spikes) at every
// size; and every other block size one past a block, at 1000 and at 67 blocks less three.
// `base_seed` 0 keeps grade_seeds; any other value (the trusted grader's fresh draw, --grade-seed)
// derives the three seeds from it, so a submission cannot know its inputs before it runs.
std::vector<GradeCase> graded_cases(bool huge, std::uint64_t base_seed = 0);

// "n=257 block=256 seed=1 uniform"
std::string describe(const GradeCase& c);

// Runs one case of plan r (a fresh input of the case's seed and distribution).
CaseResult run_graded_case(Device& device, const Plan& r, const GradeCase& c);

// What kind of bug a failure shows, for the student and for choosing the hint that matches it.
enum class BugClass {
  race,           // the race detector named two unordered accesses of one location
  barrier,        // a __syncthreads or warp collective some threads never reach (or a deadlock)
  out_of_range,   // an index outside shared memory (or other memory the kernel does not own)
  never_written,  // the output still holds the harness's poison
  hang,           // no progress within the case timeout
  // off by more than rounding, or exact data off by whole elements: input lost or counted twice
  lost_input,
  integer_only,  // within rounding on random data, not exact on integer data
  // right in lane order, wrong in another order, with no race the detector could see
  thread_order,
  // every result right, but the lesson's speed target missed (lesson 11: too few bytes in flight)
  too_slow,
  // every result right, but not by the lesson's idea: a trace of the kernel (idea.h), a count of
  // the simulator's, the chain of combines behind an output (matrix_cases.h), a call's wait or the
  // GPUs it wrote shows the flaw its lesson removes
  not_the_idea,
  crash,  // any other kernel error, signal or exit without a verdict
};
inline constexpr BugClass all_bug_classes[] = {
    BugClass::race,     BugClass::barrier,      BugClass::out_of_range, BugClass::never_written,
    BugClass::hang,     BugClass::lost_input,   BugClass::integer_only, BugClass::thread_order,
    BugClass::too_slow, BugClass::not_the_idea, BugClass::crash};

// "race", "barrier not reached", "out of range", "never written", "hang", "lost input",
// "wrong on integer data only", "wrong only in some thread order", "too slow", "crash".
std::string_view to_string(BugClass b);
// One word each, for the protocol between the grader's child and parent and for hint tags in
// HINTS.md: race, barrier, out-of-range, never-written, hang, lost-input, integer-only,
// thread-order, too-slow, crash.
std::string_view bug_tag(BugClass b);
std::optional<BugClass> parse_bug_tag(std::string_view tag);
// What the class means, in a sentence a student can act on.
std::string_view bug_meaning(BugClass b);

// The class of a kernel error's report (the simulator's KernelError, a memory-fault line).
BugClass classify_kernel_error(std::string_view what);
// The class of any failure line whose class nobody said: a kernel error's, never written when the
// line says so, and otherwise a wrong result: lost input.
BugClass classify_failure_line(std::string_view line);
// A judge of a lesson's own cases (grade_main.h's GradedRun) marks a failure of the lesson's idea,
// right totals in the wrong places, by beginning its line with idea_mark (lesson 22's reduce to a
// root that writes every GPU). classify_judged takes the mark out of `line` and classes it so;
// any other line as classify_failure_line does.
inline constexpr std::string_view idea_mark = "[idea] ";
BugClass classify_judged(std::string& line);

// Words a hint about this class of bug is likely to use (matching_hint in hints.h picks the first
// hint that names one, unless a hint is tagged for the class).
std::vector<std::string_view> bug_keywords(BugClass b);

// Why a result fails its case (one line) and the class of bug that shows; nullopt when it passes.
struct Failure {
  BugClass bug = BugClass::crash;
  std::string why;
};
std::optional<Failure> diagnose(const CaseResult& r, const GradeCase& c);
// diagnose's line alone.
std::optional<std::string> failure_of(const CaseResult& r, const GradeCase& c);

// The verdict on one lesson: every variant over every case, stopping at the first failure.
struct Grade {
  bool passed = false;
  std::size_t cases_run = 0;
  std::string failure;             // one line: the case and what went wrong
  BugClass bug = BugClass::crash;  // when failed
};

// One run of a graded case: `pass` 0 in lane order, 1 and 2 the simulator's reruns in reverse and
// shuffled order; `plan` and `index` say which plan of the list and which case. Returns the result
// or throws the kernel's error. grade_plans runs the kernel; the trusted grader replays a
// submission's recorded outputs instead (common/host/grade_record.h).
// Lesson 15's idea (Plan::replays), in two halves like lesson 11's target. replay_figures, in the
// submission's process: the plan called twice with the same arguments at n = 1000 (the input drawn
// from base_seed), the launches of the second call counted (launch_observer) and its total read.
// replay_judged, host code only (the trusted grader's too): why those figures fail, in one line,
// or nullopt: the second call must launch nothing itself and leave the right total.
struct ReplayFigures {
  unsigned launches = 0;
  float got = 0.0f;
};
ReplayFigures replay_figures(Device& device, const Plan& plan, std::uint64_t base_seed);
std::optional<std::string> replay_judged(const ReplayFigures& f, const Plan& plan,
                                         std::uint64_t base_seed, const DeviceShape& shape);

// The idea of a plan launched with programmatic_dependency on a stream (lessons 13 and 14: each
// call may start while the call before it still runs; it must wait, inside, before it touches what
// that call writes), in two halves like the replay. queued_figures, in the submission's process:
// the plan called twice back to back at n = 2^16+1 (the input drawn from base_seed), the two calls
// sharing the scratch, each with its own output, and one wait after both; on the simulator the
// second call's first block runs up to its cudaGridDependencySynchronize() before the first call
// runs at all, with the race detector on. The two totals, or the error the run stopped with.
// queued_judged, host code only: why those figures fail (the class and one line), or nullopt.
struct QueuedFigures {
  float first = 0.0f, second = 0.0f;
  std::string error;  // the kernel's error, where the run stopped with one
  // On the simulator: the __syncthreads the second call's first block reached before it waited
  // for the first call, and whether it waited (sim::last_early_run); -1: not seen (a GPU).
  int early_barriers = -1;
  bool early_waited = false;
};
bool is_queued_graded(const Plan& plan);
QueuedFigures queued_figures(Device& device, const Plan& plan, std::uint64_t base_seed);
std::optional<Failure> queued_judged(const QueuedFigures& f, const Plan& plan,
                                     std::uint64_t base_seed, const DeviceShape& shape);

// Lesson 16's idea (Plan::never_waits: a call that brings its own temporary storage yet never
// waits for the GPU), in two halves like the replay. held_figures, in the submission's process, on
// a GPU: the stream held for held_ms (Device::hold_stream), then one call of the plan at n =
// replay_n (1000) on it, timed on the host from before the call to its return; then a wait, and the call's
// total. held_judged, host code only: why those figures fail, in one line, or nullopt. A call that
// waits for the GPU (a cudaFree, a cudaMalloc that waits for the device, a copy of the total to the
// host) returns only after the hold.
inline constexpr double held_ms = 200.0;
struct HeldFigures {
  double held_ms = 0.0;  // how long the stream was held
  double call_ms = 0.0;  // how long the call took to return, on the host
  float got = 0.0f;
};
HeldFigures held_figures(Device& device, const Plan& plan, std::uint64_t base_seed);
std::optional<std::string> held_judged(const HeldFigures& f, const Plan& plan,
                                       std::uint64_t base_seed, const DeviceShape& shape);

using CaseRunner = std::function<CaseResult(int pass, std::size_t plan, std::size_t index,
                                            const Plan& p, const GradeCase& c)>;

// grade_plans' cases and order over any runner; `sim` says whether the reruns in the other thread
// orders belong to the grade (they do on the simulator).
Grade grade_with(const std::vector<Plan>& plans, Backend backend, std::uint64_t base_seed,
                 const CaseRunner& run, const std::function<void(const std::string&)>& progress);

// `progress` is told each case before it runs (so a watchdog can tell a hang from slow work).
// Kernel errors the simulator throws (a race its detector names when `options` turn it on, a
// barrier not reached, a bad mask) become the failure line. On the simulator, a kernel that passes
// is run again under the other two schedules: a result that changes with the order of the threads
// is a race the detector could not see (memory not named through checked views).
// `run` (where given) sees every case's result as it comes (the submission's side records it).
Grade grade_plans(Device& device, const std::vector<Plan>& plans, const RunOptions& options,
                  const std::function<void(const std::string&)>& progress,
                  std::uint64_t base_seed = 0,
                  const std::function<void(int pass, std::size_t plan, std::size_t index,
                                           const CaseResult*, const char* error)>& seen = {});

}  // namespace rl

#pragma once
// The command line the lesson executables, the runner's subcommands and lessons 18-22 share
// (CLI11). Each program takes the shared options that mean something for it (RunOptionSet), so its
// --help lists only options that work. Bad values never reach a kernel: they become a UsageError,
// which main() prints as one line and answers with exit code 2.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/host/input.h"
#include "common/host/plan.h"

// Declared, not included: most files that include this one need RunOptions or UsageError only, and
// <CLI/CLI.hpp> costs seconds of compile time each. The files that build a command line include it.
namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace rl {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Returned instead of options when --help was asked for: the text is already printed.
struct HelpShown {};

enum class SimSchedule { lane_order, reverse_lanes, shuffled };

// Timed samples where --reps is not given: on a GPU the program's own number, on the simulator 3
// (its samples vary little and cost seconds each).
inline constexpr unsigned sim_default_reps = 3;

struct RunOptions {
  std::uint64_t n = 0;
  bool n_given = false;  // otherwise the backend's default size applies
  unsigned block = 256;
  bool block_given = false;  // otherwise a lesson tuned for another block size uses its own
  unsigned reps = 20;        // timed samples on a GPU; the median is reported
  bool reps_given = false;   // otherwise the simulator takes sim_default_reps (samples() below)
  std::uint64_t seed = 20240601;
  Distribution distribution = Distribution::uniform;
  std::string json_path;  // write the results record here
  // write a trace of the lesson's kernel (small n and block by default)
  std::string trace_path;
  // run (and trace) only the lesson's kernel of this name, as its run lists it: the slug for the
  // lesson's own, else the variant's; empty: every kernel (the trace: the lesson's own)
  std::string variant;
  bool check_only = false;         // verify, don't time
  std::optional<Backend> backend;  // default: gpu when one is visible, else sim
  SimSchedule schedule = SimSchedule::lane_order;
  unsigned sim_threads = 0;  // host threads for simulated blocks; 0 = all cores
  // The simulator's race detector (common/sim/README.md): --sim-racecheck / --no-sim-racecheck;
  // when neither is given it is on for --grade and off otherwise (racecheck_on below).
  std::optional<bool> sim_racecheck;
  // --sim-late-visibility: another block sees a global write only through what CUDA's memory model
  // orders (common/sim/README.md, "Late visibility")
  bool sim_late_visibility = false;
  // a progress line on stderr after this long in simulated launches; 0: none
  double sim_progress_s = 5;
  bool sim_no_limit = false;  // run even where the simulator's estimate is over sim_time_limit_s
  // run the graded cases and print a verdict (common/host/grade_main.h)
  bool grade = false;
  unsigned hint = 0;  // print this graded hint of the lesson's exercise and stop
  // --grade: seconds without progress after which the kernel counts as hung
  double case_timeout_s = 20;
  // --grade in the sandbox: write the cases' raw outputs to this open file descriptor for the
  // trusted grader (common/host/grade_record.h); -1: none
  int grade_outputs_fd = -1;
  // --grade on the trusted side: judge the outputs in this file instead of running a kernel
  std::string grade_check;
  // --grade: the inputs come from this seed (0: the fixed grade_seeds)
  std::uint64_t grade_seed = 0;
  // check the exercise's answers in this file (common/host/answers.h) and stop
  std::string check_answers;
};

// Whether simulated launches check races: as asked, else only when grading.
inline bool racecheck_on(const RunOptions& o) { return o.sim_racecheck.value_or(o.grade); }

// The timed samples a run takes on backend b: --reps where given, else the GPU's default or the
// simulator's.
inline unsigned samples(const RunOptions& o, Backend b) {
  return o.reps_given || b == Backend::gpu ? o.reps : sim_default_reps;
}

// "2^24", "2^24+3", "1000": sizes are often powers of two and their neighbours. nullopt for
// anything else, and above 2^62.
std::optional<std::uint64_t> parse_size(std::string_view text);

// The largest size a command line takes: 2^62 (4.6e18) elements.
inline constexpr std::uint64_t max_size = std::uint64_t{1} << 62;

// A whole number given to `option` ("--n"), in parse_size's forms: an empty, negative, malformed or
// too large (over `max`) one is a UsageError of one line that names the option and says which.
std::uint64_t parse_count(std::string_view text, std::string_view option,
                          std::uint64_t max = max_size);

// A number of seconds given to `option`: more than 0 (0 too where zero_ok) and at most `max`.
double parse_seconds(std::string_view text, std::string_view option, double max,
                     bool zero_ok = false);

// Checks the values CLI11 cannot: block a power of two in [32, 1024], reps >= 1.
void validate(const RunOptions& o);

// --backend's value: "gpu" or "sim"; empty keeps the default (the GPU when one is visible).
std::optional<Backend> parse_backend(const std::string& text);

// --hint and --case-timeout's ranges; hint_given: --hint was on the command line (--hint 0 is an
// error).
void check_grade_values(const RunOptions& o, bool hint_given);

// Checks, before any work starts, that a file can be written at `path` (the value of `option`): its
// folder exists and may be written to, and it is not itself a folder. Creates nothing. Throws a
// UsageError that names the option, the file and what is wrong.
void check_output_path(const std::string& path, std::string_view option);

// Which of the shared options a program takes: its --help lists these and no others.
enum RunOption : unsigned {
  opt_n = 1u << 0,              // --n
  opt_block = 1u << 1,          // --block
  opt_reps = 1u << 2,           // --reps
  opt_seed = 1u << 3,           // --seed
  opt_dist = 1u << 4,           // --dist
  opt_json = 1u << 5,           // --json
  opt_trace = 1u << 6,          // --trace
  opt_check_only = 1u << 7,     // --check-only
  opt_backend = 1u << 8,        // --backend
  opt_sim = 1u << 9,            // --sim-schedule, --sim-threads, --sim-progress, --sim-no-limit
  opt_racecheck = 1u << 10,     // --sim-racecheck, --no-sim-racecheck, --sim-late-visibility
  opt_grade = 1u << 11,         // --grade, --hint, --case-timeout
  opt_grade_record = 1u << 12,  // --grade-outputs-fd, --grade-check, --grade-seed
  opt_answers = 1u << 13,       // --check-answers: lessons whose exercise has graded questions
  opt_variant = 1u << 14,       // --variant: the lessons whose runs list their kernels' variants
};
inline constexpr unsigned lesson_options = opt_n | opt_block | opt_reps | opt_seed | opt_dist |
                                           opt_json | opt_trace | opt_check_only | opt_backend |
                                           opt_sim | opt_racecheck | opt_grade | opt_grade_record;

struct RunOptionSet {
  unsigned which = lesson_options;
  unsigned gpu_reps = 20;  // --reps where not given, on a GPU
  std::string n_help =
      "number of float32 elements: 1000, 2^24 or 2^24+3 (default: 2^24 on a GPU, 2^18 simulated)";
  std::string json_help = "write the results record (JSON) to this file";
  bool json_required = false;
};

// Adds the options of `set` to a CLI11 app (or subcommand) and turns what was given into
// RunOptions.
class RunOptionParser {
 public:
  explicit RunOptionParser(CLI::App& app, RunOptionSet set = {});
  RunOptions resolve() const;  // throws UsageError (one line)

 private:
  RunOptionSet set_;
  RunOptions base_;
  CLI::Option* block_opt_ = nullptr;
  CLI::Option* racecheck_opt_ = nullptr;
  bool racecheck_ = false;
  std::string n_, block_ = "256", reps_, seed_ = "20240601", backend_, dist_ = "uniform",
                  schedule_ = "lane-order";
  std::string sim_threads_, sim_progress_, hint_, case_timeout_, grade_outputs_fd_, grade_seed_;
};

// Parses argv with CLI11; a parse error, or an option given an empty value, becomes a UsageError.
// Returns false when --help was shown.
bool parse_command_line(CLI::App& app, int argc, const char* const* argv);

// The lessons' whole command line: parse, validate, or std::nullopt after printing --help. `more`:
// options beyond lesson_options this lesson takes (opt_answers, opt_variant).
std::optional<RunOptions> parse_run_options(int argc, const char* const* argv,
                                            const std::string& program, const std::string& about,
                                            unsigned more = 0);

}  // namespace rl

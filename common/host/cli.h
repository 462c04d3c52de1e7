#pragma once
// The one command line every lesson executable shares (CLI11). Bad values never reach a kernel:
// they become a UsageError, which main() prints as one line and answers with exit code 2.
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

struct RunOptions {
  std::uint64_t n = 0;
  bool n_given = false;        // otherwise the backend's default size applies
  unsigned block = 256;
  bool block_given = false;    // otherwise a lesson tuned for another block size uses its own
  unsigned reps = 20;          // timed samples; the median is reported
  bool reps_given = false;     // otherwise the simulator takes fewer (its samples vary little)
  std::uint64_t seed = 20240601;
  Distribution distribution = Distribution::uniform;
  std::string json_path;       // write the results record here
  std::string trace_path;      // write a trace of the lesson's kernel (small n and block by default)
  bool check_only = false;     // verify, don't time
  std::optional<Backend> backend;  // default: gpu when one is visible, else sim
  SimSchedule schedule = SimSchedule::lane_order;
  unsigned sim_threads = 0;    // host threads for simulated blocks; 0 = all cores
  // The simulator's race detector (common/sim/README.md): --sim-racecheck / --no-sim-racecheck; when
  // neither is given it is on for --grade and off otherwise (racecheck_on below).
  std::optional<bool> sim_racecheck;
  bool grade = false;          // run the graded cases and print a verdict (common/host/grade_main.h)
  unsigned hint = 0;           // print this graded hint of the lesson's exercise and stop
  double case_timeout_s = 20;  // --grade: seconds without progress after which the kernel counts as hung
};

// Whether simulated launches check races: as asked, else only when grading.
inline bool racecheck_on(const RunOptions& o) { return o.sim_racecheck.value_or(o.grade); }

// "2^24", "2^24+3", "1000": sizes are often powers of two and their neighbours.
std::optional<std::uint64_t> parse_size(std::string_view text);

// Checks the values CLI11 cannot: block a power of two in [32, 1024], reps >= 1.
void validate(const RunOptions& o);

// --backend's value: "gpu" or "sim"; empty keeps the default (the GPU when one is visible).
std::optional<Backend> parse_backend(const std::string& text);

// --hint and --case-timeout's ranges; hint_given: --hint was on the command line (--hint 0 is an error).
void check_grade_values(const RunOptions& o, bool hint_given);

// Adds the shared options to a CLI11 app (or subcommand) and turns what was given into RunOptions.
class RunOptionParser {
 public:
  explicit RunOptionParser(CLI::App& app);
  RunOptions resolve() const;  // throws UsageError (one line)

 private:
  RunOptions base_;
  CLI::Option* reps_ = nullptr;
  CLI::Option* block_opt_ = nullptr;
  CLI::Option* hint_ = nullptr;
  CLI::Option* racecheck_opt_ = nullptr;
  bool racecheck_ = false;
  std::string n_, block_ = "256", backend_, dist_ = "uniform", schedule_ = "lane-order";
};

// Parses argv with CLI11; a parse error becomes UsageError. Returns false when --help was shown.
bool parse_command_line(CLI::App& app, int argc, const char* const* argv);

// The lessons' whole command line: parse, validate, or std::nullopt after printing --help.
std::optional<RunOptions> parse_run_options(int argc, const char* const* argv, const std::string& program,
                                            const std::string& about);

}  // namespace rl

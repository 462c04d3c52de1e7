#include "common/host/cli.h"

#include <CLI/CLI.hpp>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include <fcntl.h>
#include <unistd.h>

namespace rl {
namespace {

enum class Parsed { ok, empty, negative, malformed, too_large };

// "1000", "2^24", "2^24+3", "2^10-1" into `value`; too_large when over `max` (or over 64 bits).
Parsed parse_whole(std::string_view s, std::uint64_t max, std::uint64_t& value) {
  if (s.empty()) return Parsed::empty;
  if (s.front() == '-') return Parsed::negative;
  const auto digits = [](std::string_view d, std::uint64_t& v) {
    if (d.empty()) return Parsed::malformed;
    const auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
    if (ec == std::errc::result_out_of_range) return Parsed::too_large;
    if (ec != std::errc() || end != d.data() + d.size()) return Parsed::malformed;
    return Parsed::ok;
  };
  if (!s.starts_with("2^")) {
    const Parsed p = digits(s, value);
    return p == Parsed::ok && value > max ? Parsed::too_large : p;
  }
  s.remove_prefix(2);
  const auto sign = s.find_first_of("+-");
  std::uint64_t exponent = 0, offset = 0;
  if (const Parsed p = digits(s.substr(0, sign), exponent); p != Parsed::ok) return p;
  if (sign != std::string_view::npos)
    if (const Parsed p = digits(s.substr(sign + 1), offset); p != Parsed::ok) return p;
  if (exponent > 63) return Parsed::too_large;
  const std::uint64_t base = std::uint64_t{1} << exponent;
  if (sign == std::string_view::npos)
    value = base;
  else if (s[sign] == '-') {
    if (offset > base) return Parsed::negative;
    value = base - offset;
  } else {
    if (offset > ~std::uint64_t{0} - base) return Parsed::too_large;
    value = base + offset;
  }
  return value > max ? Parsed::too_large : Parsed::ok;
}

// A limit as a student would type it: 2^62, or the number itself.
std::string show_limit(std::uint64_t max) {
  if (max >= (std::uint64_t{1} << 20) && std::has_single_bit(max))
    return "2^" + std::to_string(std::countr_zero(max));
  return std::to_string(max);
}

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t v = 0;
  if (parse_whole(text, max_size, v) != Parsed::ok) return std::nullopt;
  return v;
}

std::uint64_t parse_count(std::string_view text, std::string_view option, std::uint64_t max) {
  std::uint64_t v = 0;
  const std::string name(option);
  switch (parse_whole(text, max, v)) {
    case Parsed::ok:
      return v;
    case Parsed::empty:
      throw UsageError(name + " needs a value (it was given an empty one)");
    case Parsed::negative:
      throw UsageError(name + " must be at least 0 (got " + std::string(text) + ")");
    case Parsed::malformed:
      throw UsageError(name + " must be a whole number such as 1000, 2^20 or 2^20+7 (got " +
                       in_quotes(text) + ")");
    case Parsed::too_large:
      throw UsageError(name + " " + std::string(text) + " is too large (at most " +
                       show_limit(max) + ")");
  }
  return v;
}

double parse_seconds(std::string_view text, std::string_view option, double max, bool zero_ok) {
  const std::string name(option), s(text);
  if (s.empty()) throw UsageError(name + " needs a value (it was given an empty one)");
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && !s.starts_with('-'))
    throw UsageError(name + " " + s + " is too large (at most " + seconds_text(max) + " seconds)");
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    throw UsageError(name + " must be a number of seconds such as 20 or 0.5 (got " + in_quotes(s) +
                     ")");
  if (v < 0 || (v == 0 && !zero_ok))
    throw UsageError(name + " must be more than 0" + (zero_ok ? std::string(" or 0") : "") +
                     " (got " + s + ")");
  if (v > max)
    throw UsageError(name + " " + s + " is too large (at most " + seconds_text(max) + " seconds)");
  return v;
}

void validate(const RunOptions& o) {
  if (o.block < 32 || o.block > 1024 || !std::has_single_bit(o.block))
    throw UsageError("--block must be a power of two from 32 to 1024 (got " +
                     std::to_string(o.block) + ")");
  if (o.reps < 1) throw UsageError("--reps must be at least 1");
}

void check_output_path(const std::string& path, std::string_view option) {
  namespace fs = std::filesystem;
  const std::string name(option);
  const auto fail = [&](const std::string& why) {
    return UsageError(name + ": cannot write " + in_quotes(path) + ": " + why);
  };
  if (path.empty()) throw UsageError(name + " needs a value (it was given an empty one)");
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) throw fail("it is a folder");
  if (fs::exists(p, ec)) {
    if (::access(path.c_str(), W_OK) != 0) throw fail(std::strerror(errno));
    return;
  }
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::exists(folder, ec))
    throw fail("the folder " + in_quotes(folder.string()) + " does not exist");
  if (!fs::is_directory(folder, ec)) throw fail(in_quotes(folder.string()) + " is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw fail("the folder " + in_quotes(folder.string()) + " cannot be written to (" +
               std::strerror(errno) + ")");
}

RunOptionParser::RunOptionParser(CLI::App& app, RunOptionSet set) : set_(std::move(set)) {
  const unsigned w = set_.which;
  const bool sim = (w & opt_sim) != 0;
  base_.reps = set_.gpu_reps;
  if (w & opt_n) app.add_option("--n", n_, set_.n_help)->type_name("SIZE");
  if (w & opt_block)
    block_opt_ = app.add_option("--block", block_,
                                "threads per block: a power of two from 32 to 1024 (default 256, "
                                "or the lesson's own "
                                "where it is tuned for another)")
                     ->type_name("UINT");
  if (w & opt_reps)
    app.add_option(
           "--reps", reps_,
           "timed samples; the median is reported (default " + std::to_string(set_.gpu_reps) +
               (sim ? " on a GPU, " + std::to_string(sim_default_reps) + " simulated)" : ")"))
        ->type_name("UINT");
  if (w & opt_seed)
    app.add_option("--seed", seed_, "seed of the random input, printed so any run can be replayed")
        ->type_name("UINT")
        ->capture_default_str();
  if (w & opt_dist)
    app.add_option("--dist", dist_,
                   "input distribution: uniform (-1,1), positive [0.5,1.5), integers 1..8, "
                   "spikes (a 1 every 256th element and at the last, else 0: exact at any N)")
        ->capture_default_str();
  if (w & opt_json) {
    auto* json = app.add_option("--json", base_.json_path, set_.json_help)->type_name("FILE");
    if (set_.json_required) json->required();
  }
  if (w & opt_trace)
    app.add_option(
           "--trace", base_.trace_path,
           "record the kernel's reduction tree into this trace file (default --n 64 --block 32)")
        ->type_name("FILE");
  if (w & opt_check_only)
    app.add_flag("--check-only", base_.check_only,
                 "verify against the CPU reference without timing");
  if (w & opt_backend)
    app.add_option("--backend", backend_,
                   "gpu or sim (default: gpu when a GPU is visible, else sim)")
        ->type_name("gpu|sim");
  if (sim) {
    app.add_option("--sim-schedule", schedule_,
                   "simulator lane order: lane-order, reverse-lanes or shuffled")
        ->capture_default_str();
    app.add_option("--sim-threads", sim_threads_,
                   "host threads running simulated blocks (default 0: all cores)")
        ->type_name("UINT");
    app.add_option("--sim-progress", sim_progress_,
                   "simulator: a progress line on stderr after this many seconds without one "
                   "(default 5; 0: none)")
        ->type_name("SECONDS");
    app.add_flag("--sim-no-limit", base_.sim_no_limit,
                 "simulator: run even where its estimate is over 10 minutes (such a run is "
                 "otherwise refused, "
                 "with the estimate)");
  }
  if (w & opt_racecheck) {
    racecheck_opt_ =
        app.add_flag("--sim-racecheck,!--no-sim-racecheck", racecheck_,
                     "simulator: report the first race (shared memory, and global memory across "
                     "blocks), with both threads and lines (default: on with --grade, else off)");
    app.add_flag("--sim-late-visibility", base_.sim_late_visibility,
                 "simulator: a block sees another block's global write only once CUDA's memory "
                 "model orders it (a fence, an atomic and a fence; a kernel boundary), else the "
                 "value before it");
  }
  if (w & opt_grade) {
    app.add_flag("--grade", base_.grade,
                 "grade this build's kernel on every graded case; stop at the first failure");
    app.add_option("--hint", hint_, "print graded hint 1, 2 or 3 of the lesson's exercise")
        ->type_name("1|2|3");
    app.add_option("--case-timeout", case_timeout_,
                   "--grade: seconds without progress that count as a hang (default 20)")
        ->type_name("SECONDS");
  }
  if (w & opt_grade_record) {
    app.add_option("--grade-outputs-fd", grade_outputs_fd_,
                   "--grade in lessons/grade.sh's sandbox: write each case's raw output to this "
                   "open file descriptor for the trusted grader")
        ->type_name("FD");
    app.add_option("--grade-check", base_.grade_check,
                   "--grade on the trusted side: judge a submission's outputs (from "
                   "--grade-outputs-fd) in this file; runs no kernel")
        ->type_name("FILE");
    app.add_option("--grade-seed", grade_seed_,
                   "--grade: draw the graded inputs from this seed (default: the fixed seeds)")
        ->type_name("SEED");
  }
  if (set_.which & opt_variant)
    app.add_option("--variant", base_.variant,
                   "run and --trace only this kernel of the lesson, named as the run lists it "
                   "(the lesson's own, or a variant such as an exercise's); `graded`: the one "
                   "whose idea the exercise's grade reads in a trace (else the lesson's own)")
        ->type_name("NAME");
  if (set_.which & opt_answers)
    app.add_option("--check-answers", base_.check_answers,
                   "check the answers to the exercise's questions in this file (its "
                   "exercise/answers_NN.txt) and stop")
        ->type_name("FILE");
}

RunOptions RunOptionParser::resolve() const {
  RunOptions o = base_;
  if (!n_.empty()) {
    o.n = parse_count(n_, "--n");
    o.n_given = true;
  }
  if (!reps_.empty()) {
    const std::uint64_t reps = parse_count(reps_, "--reps", 1000000);
    if (reps < 1) throw UsageError("--reps must be at least 1");
    o.reps = static_cast<unsigned>(reps);
    o.reps_given = true;
  }
  o.block_given = block_opt_ && block_opt_->count() > 0;
  {
    std::uint64_t block = 0;
    const Parsed p = parse_whole(block_, 1024, block);
    if (p != Parsed::ok || !std::has_single_bit(block) || block < 32)
      throw UsageError("--block must be a power of two from 32 to 1024 (got '" + block_ + "')");
    o.block = static_cast<unsigned>(block);
  }
  o.seed = parse_count(seed_, "--seed", ~std::uint64_t{0});
  const auto dist = parse_distribution(dist_);
  if (!dist)
    throw UsageError("--dist must be uniform, positive, integers or spikes (got '" + dist_ + "')");
  o.distribution = *dist;
  o.backend = parse_backend(backend_);
  static const std::map<std::string, SimSchedule> schedules{
      {"lane-order", SimSchedule::lane_order},
      {"reverse-lanes", SimSchedule::reverse_lanes},
      {"shuffled", SimSchedule::shuffled}};
  const auto s = schedules.find(schedule_);
  if (s == schedules.end())
    throw UsageError("--sim-schedule must be lane-order, reverse-lanes or shuffled (got '" +
                     schedule_ + "')");
  o.schedule = s->second;
  if (!sim_threads_.empty())
    o.sim_threads = static_cast<unsigned>(parse_count(sim_threads_, "--sim-threads", 4096));
  if (!sim_progress_.empty())
    o.sim_progress_s = parse_seconds(sim_progress_, "--sim-progress", 3600, true);
  if (racecheck_opt_ && racecheck_opt_->count() > 0) o.sim_racecheck = racecheck_;
  if (!hint_.empty()) {
    o.hint = static_cast<unsigned>(parse_count(hint_, "--hint", 3));
    if (o.hint == 0) throw UsageError("--hint counts from 1 (got 0)");
  }
  if (!case_timeout_.empty())
    o.case_timeout_s = parse_seconds(case_timeout_, "--case-timeout", 3600);
  if (!grade_outputs_fd_.empty())
    o.grade_outputs_fd =
        static_cast<int>(parse_count(grade_outputs_fd_, "--grade-outputs-fd", 1023));
  if (!grade_seed_.empty())
    o.grade_seed = parse_count(grade_seed_, "--grade-seed", ~std::uint64_t{0});
  if ((o.grade_outputs_fd >= 0 || !o.grade_check.empty() || !grade_seed_.empty()) && !o.grade)
    throw UsageError("--grade-outputs-fd, --grade-check and --grade-seed go with --grade");
  if (o.grade_outputs_fd >= 0 && !o.grade_check.empty())
    throw UsageError(
        "--grade-outputs-fd runs the kernel and --grade-check judges outputs: not both");
  if (o.grade_outputs_fd >= 0 && ::fcntl(o.grade_outputs_fd, F_GETFD) < 0)
    throw UsageError("--grade-outputs-fd " + grade_outputs_fd_ + " is not an open file descriptor");
  if (!o.grade_check.empty() && ::access(o.grade_check.c_str(), R_OK) != 0)
    throw UsageError("--grade-check: cannot read " + o.grade_check);
  check_grade_values(o, !hint_.empty());
  validate(o);
  if (!o.json_path.empty()) check_output_path(o.json_path, "--json");
  if (!o.trace_path.empty()) check_output_path(o.trace_path, "--trace");
  return o;
}

std::optional<Backend> parse_backend(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text == "gpu") return Backend::gpu;
  if (text == "sim") return Backend::sim;
  throw UsageError("--backend must be gpu or sim (got '" + text + "')");
}

void check_grade_values(const RunOptions& o, bool hint_given) {
  if (hint_given && o.hint == 0) throw UsageError("--hint counts from 1 (got 0)");
  if (!(o.case_timeout_s > 0) || o.case_timeout_s > 3600)
    throw UsageError("--case-timeout must be more than 0 and at most 3600 seconds");
}

namespace {

// An option given "" (`--n ''`, `--json=`) is a mistake, never a request for the default.
void reject_empty_values(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_expected_min() == 0 || opt->count() == 0) continue;  // a flag, or not given
    for (const std::string& value : opt->results())
      if (value.empty())
        throw UsageError(opt->get_name() + " needs a value (it was given an empty one)");
  }
  for (const CLI::App* sub : app.get_subcommands()) reject_empty_values(*sub);
}

}  // namespace

bool parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return false;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  reject_empty_values(app);
  return true;
}

std::optional<RunOptions> parse_run_options(int argc, const char* const* argv,
                                            const std::string& program, const std::string& about,
                                            unsigned more) {
  CLI::App app(about, program);
  RunOptionSet set;
  set.which |= more;
  RunOptionParser options(app, set);
  if (!parse_command_line(app, argc, argv)) return std::nullopt;
  return options.resolve();
}

}  // namespace rl

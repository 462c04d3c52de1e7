#include "common/host/cli.h"

#include <CLI/CLI.hpp>

#include <bit>
#include <charconv>
#include <iostream>
#include <map>

namespace rl {
namespace {

std::optional<std::uint64_t> parse_uint(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  if (!text.starts_with("2^")) return parse_uint(text);
  text.remove_prefix(2);
  const auto sign = text.find_first_of("+-");
  const auto exponent = parse_uint(text.substr(0, sign));
  if (!exponent || *exponent > 62) return std::nullopt;
  const std::uint64_t base = std::uint64_t{1} << *exponent;
  if (sign == std::string_view::npos) return base;
  const auto offset = parse_uint(text.substr(sign + 1));
  if (!offset) return std::nullopt;
  if (text[sign] == '+') return base + *offset;
  if (*offset > base) return std::nullopt;
  return base - *offset;
}

void validate(const RunOptions& o) {
  if (o.block < 32 || o.block > 1024 || !std::has_single_bit(o.block))
    throw UsageError("--block must be a power of two from 32 to 1024 (got " + std::to_string(o.block) + ")");
  if (o.reps < 1) throw UsageError("--reps must be at least 1");
}

RunOptionParser::RunOptionParser(CLI::App& app) {
  app.add_option("--n", n_, "number of float32 elements: 1000, 2^24 or 2^24+3 (default: 2^24 on a GPU, 2^18 simulated)");
  block_opt_ = app.add_option("--block", block_, "threads per block: a power of two from 32 to 1024")->capture_default_str();
  reps_ = app.add_option("--reps", base_.reps, "timed samples; the median is reported")->capture_default_str();
  app.add_option("--seed", base_.seed, "seed of the random input, printed so any run can be replayed")
      ->capture_default_str();
  app.add_option("--dist", dist_, "input distribution: uniform (-1,1), positive [0.5,1.5), integers 1..8, "
                 "spikes (a 1 every 256th element, else 0: exact at any N)")
      ->capture_default_str();
  app.add_option("--json", base_.json_path, "write the results record (JSON) to this file");
  app.add_option("--trace", base_.trace_path,
                 "record the kernel's reduction tree into this trace file (default --n 64 --block 32)");
  app.add_flag("--check-only", base_.check_only, "verify against the CPU reference without timing");
  app.add_option("--backend", backend_, "gpu or sim (default: gpu when a GPU is visible, else sim)");
  app.add_option("--sim-schedule", schedule_, "simulator lane order: lane-order, reverse-lanes or shuffled")
      ->capture_default_str();
  app.add_option("--sim-threads", base_.sim_threads, "host threads running simulated blocks (0: all cores)");
  racecheck_opt_ = app.add_flag("--sim-racecheck,!--no-sim-racecheck", racecheck_,
                                "simulator: report the first shared-memory race, with both threads and lines "
                                "(default: on with --grade, else off)");
  app.add_flag("--grade", base_.grade, "grade this build's kernel on every graded case; stop at the first failure");
  hint_ = app.add_option("--hint", base_.hint, "print graded hint 1, 2 or 3 of the lesson's exercise");
  app.add_option("--case-timeout", base_.case_timeout_s, "--grade: seconds without progress that count as a hang")
      ->capture_default_str();
}

RunOptions RunOptionParser::resolve() const {
  RunOptions o = base_;
  o.reps_given = reps_->count() > 0;
  o.block_given = block_opt_->count() > 0;
  if (!n_.empty()) {
    if (n_.starts_with('-')) throw UsageError("--n must be at least 0 (got " + n_ + ")");
    const auto n = parse_size(n_);
    if (!n) throw UsageError("--n must be a whole number such as 1000, 2^20 or 2^20+7 (got '" + n_ + "')");
    o.n = *n;
    o.n_given = true;
  }
  const auto block = parse_uint(block_);
  if (!block || *block > 1024 || !std::has_single_bit(*block))
    throw UsageError("--block must be a power of two from 32 to 1024 (got '" + block_ + "')");
  o.block = static_cast<unsigned>(*block);
  const auto dist = parse_distribution(dist_);
  if (!dist) throw UsageError("--dist must be uniform, positive, integers or spikes (got '" + dist_ + "')");
  o.distribution = *dist;
  o.backend = parse_backend(backend_);
  static const std::map<std::string, SimSchedule> schedules{{"lane-order", SimSchedule::lane_order},
                                                            {"reverse-lanes", SimSchedule::reverse_lanes},
                                                            {"shuffled", SimSchedule::shuffled}};
  const auto s = schedules.find(schedule_);
  if (s == schedules.end())
    throw UsageError("--sim-schedule must be lane-order, reverse-lanes or shuffled (got '" + schedule_ + "')");
  o.schedule = s->second;
  if (racecheck_opt_->count() > 0) o.sim_racecheck = racecheck_;
  check_grade_values(o, hint_->count() > 0);
  validate(o);
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
  return true;
}

std::optional<RunOptions> parse_run_options(int argc, const char* const* argv, const std::string& program,
                                            const std::string& about) {
  CLI::App app(about, program);
  RunOptionParser options(app);
  if (!parse_command_line(app, argc, argv)) return std::nullopt;
  return options.resolve();
}

}  // namespace rl

// The shared command line: sizes in the forms students type, and every bad value refused.
#include <catch2/catch.hpp>

#include <vector>

#include "common/host/cli.h"

using namespace rl;

namespace {
std::optional<RunOptions> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "lesson");
  return parse_run_options(static_cast<int>(args.size()), args.data(), "lesson", "test");
}
}  // namespace

TEST_CASE("sizes parse as numbers and powers of two with offsets", "[cli]") {
  CHECK(parse_size("0") == 0u);
  CHECK(parse_size("1000") == 1000u);
  CHECK(parse_size("2^20") == (1u << 20));
  CHECK(parse_size("2^24+3") == (1u << 24) + 3);
  CHECK(parse_size("2^31+17") == (std::uint64_t{1} << 31) + 17);
  CHECK(parse_size("2^10-1") == 1023u);
  CHECK_FALSE(parse_size("2^63"));
  CHECK_FALSE(parse_size("2^4-17"));
  CHECK_FALSE(parse_size("abc"));
  CHECK_FALSE(parse_size("12x"));
  CHECK_FALSE(parse_size(""));
  CHECK(parse_size("2^62") == std::uint64_t{1} << 62);
  CHECK_FALSE(parse_size("2^62+1"));
  CHECK_FALSE(parse_size("99999999999999999999"));
}

namespace {
std::string count_error(std::string_view text, std::uint64_t max = max_size) {
  try {
    parse_count(text, "--n", max);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

TEST_CASE("a bad count says whether it is empty, negative, not a number or too large", "[cli]") {
  CHECK(count_error("") == "--n needs a value (it was given an empty one)");
  CHECK(count_error("-5") == "--n must be at least 0 (got -5)");
  CHECK(count_error("2^4-17") == "--n must be at least 0 (got 2^4-17)");
  CHECK(count_error("ten") ==
        "--n must be a whole number such as 1000, 2^20 or 2^20+7 (got 'ten')");
  CHECK(count_error("2^") == "--n must be a whole number such as 1000, 2^20 or 2^20+7 (got '2^')");
  CHECK(count_error("2^70") == "--n 2^70 is too large (at most 2^62)");
  CHECK(count_error("2^63") == "--n 2^63 is too large (at most 2^62)");
  CHECK(count_error("2^62+1") == "--n 2^62+1 is too large (at most 2^62)");
  CHECK(count_error("99999999999999999999") ==
        "--n 99999999999999999999 is too large (at most 2^62)");
  CHECK(count_error("9", 3) == "--n 9 is too large (at most 3)");
  CHECK(count_error("2^10+5") == "accepted");
}

TEST_CASE("good options are taken as given", "[cli]") {
  const auto o = parse({"--n", "2^16+1", "--block", "512", "--reps", "5", "--seed", "9", "--json",
                        "out.json", "--check-only", "--backend", "sim", "--dist", "integers",
                        "--sim-schedule", "shuffled"});
  REQUIRE(o);
  CHECK(o->n == (1u << 16) + 1);
  CHECK(o->n_given);
  CHECK(o->block == 512);
  CHECK(o->reps == 5);
  CHECK(o->reps_given);
  CHECK(o->seed == 9);
  CHECK(o->json_path == "out.json");
  CHECK(o->check_only);
  CHECK(o->backend == Backend::sim);
  CHECK(o->distribution == Distribution::integers);
  CHECK(o->schedule == SimSchedule::shuffled);
  const auto d = parse({});
  REQUIRE(d);
  CHECK_FALSE(d->n_given);
  CHECK_FALSE(d->backend);
  CHECK(d->block == 256);
}

TEST_CASE("bad options are refused with one-line usage errors", "[cli]") {
  const std::vector<std::vector<const char*>> bad{{"--n", "-1"},
                                                  {"--n", "ten"},
                                                  {"--block", "48"},
                                                  {"--block", "16"},
                                                  {"--block", "2048"},
                                                  {"--block", "0"},
                                                  {"--block", "-256"},
                                                  {"--reps", "0"},
                                                  {"--unknown"},
                                                  {"--backend", "tpu"},
                                                  {"--dist", "zeros"},
                                                  {"--sim-schedule", "lockstep"},
                                                  {"--n"},
                                                  {"--n", "2^99"},
                                                  {"--n", ""},
                                                  {"--seed", ""},
                                                  {"--seed", "2^64"},
                                                  {"--reps", ""},
                                                  {"--json", ""},
                                                  {"--hint", "0"},
                                                  {"--hint", "4"},
                                                  {"--case-timeout", "0"},
                                                  {"--case-timeout", "1e9"},
                                                  {"--sim-progress", "-1"},
                                                  {"--trace", "/nonexistent-dir/t.json"},
                                                  {"--json", "/"}};
  for (const auto& args : bad) {
    CAPTURE(args);
    try {
      parse(args);
      FAIL("accepted");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("--help prints and asks for no run", "[cli]") { CHECK_FALSE(parse({"--help"})); }

TEST_CASE("the race detector is on when grading unless turned off, and on when asked", "[cli]") {
  CHECK_FALSE(racecheck_on(*parse({})));
  CHECK(racecheck_on(*parse({"--sim-racecheck"})));
  CHECK(racecheck_on(*parse({"--grade"})));
  CHECK_FALSE(racecheck_on(*parse({"--grade", "--no-sim-racecheck"})));
  CHECK_FALSE(parse({})->sim_racecheck);
  CHECK(parse({"--no-sim-racecheck"})->sim_racecheck == false);
}

TEST_CASE("an output path is checked before any work, and its error names the option and the file",
          "[cli]") {
  const auto error = [](const char* path) {
    try {
      check_output_path(path, "--trace");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(error("/nonexistent-dir/x.json") ==
        "--trace: cannot write '/nonexistent-dir/x.json': the folder '/nonexistent-dir' does not "
        "exist");
  CHECK(error("/") == "--trace: cannot write '/': it is a folder");
  CHECK(error("cli_test_output.json") == "accepted");
}

TEST_CASE(
    "timed samples: 20 on a GPU and 3 on the simulator unless --reps, taken as given on either",
    "[cli]") {
  CHECK(samples(*parse({}), Backend::gpu) == 20);
  CHECK(samples(*parse({}), Backend::sim) == sim_default_reps);
  CHECK(samples(*parse({"--reps", "7"}), Backend::sim) == 7);
  CHECK(samples(*parse({"--reps", "7"}), Backend::gpu) == 7);
}

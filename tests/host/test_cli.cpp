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
}

TEST_CASE("good options are taken as given", "[cli]") {
  const auto o = parse({"--n", "2^16+1", "--block", "512", "--reps", "5", "--seed", "9", "--json", "out.json",
                        "--check-only", "--backend", "sim", "--dist", "integers", "--sim-schedule", "shuffled"});
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
  const std::vector<std::vector<const char*>> bad{
      {"--n", "-1"},        {"--n", "ten"},        {"--block", "48"},     {"--block", "16"},
      {"--block", "2048"},  {"--block", "0"},      {"--block", "-256"},   {"--reps", "0"},
      {"--unknown"},        {"--backend", "tpu"},  {"--dist", "zeros"},   {"--sim-schedule", "lockstep"},
      {"--n"},              {"--n", "2^99"}};
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

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "viewer/profile_model.h"

using namespace rl::viewer;

namespace {

const std::string kFixture =
    std::string(RL_REPO_ROOT) + "/viewer/testdata/fixture-h100-profile.json";

std::string refusal(const std::string& text) {
  try {
    parse_profile(text, "p.json");
  } catch (const ResultsError& e) {
    return e.what();
  }
  return "";
}

// A profile of the given kernels ({"lesson":..} objects, comma-separated).
std::string profile_of(const std::string& kernels) {
  return R"({"schema":"reducelab.profile","version":1,"device":{"name":"GPU X"},"kernels":[)" +
         kernels + "]}";
}

std::string kernel(int lesson, const char* variant, long n, int block, int launch,
                   const std::string& counters = "{}") {
  return R"({"lesson":)" + std::to_string(lesson) + R"(,"slug":"s","variant":")" + variant +
         R"(","n":)" + std::to_string(n) + R"(,"block":)" + std::to_string(block) +
         R"(,"launch":)" + std::to_string(launch) + R"(,"kernel":"k","counters":)" + counters + "}";
}

}  // namespace

TEST_CASE("the fixture profile loads as the file says, call by call and launch by launch",
          "[profile]") {
  const ProfileFile f = load_profile(kFixture);
  std::ifstream in(kFixture);
  const nlohmann::json doc = nlohmann::json::parse(in);  // the reference: the file itself
  REQUIRE(f.device == doc["device"]["name"].get<std::string>());
  REQUIRE(f.device == "NVIDIA H100 80GB HBM3");
  REQUIRE(f.metrics.at("dram_pct_of_peak") == doc["metrics"]["dram_pct_of_peak"]);
  std::size_t launches = 0;
  for (const ProfiledCall& c : f.calls) launches += c.launches.size();
  REQUIRE(launches == doc["kernels"].size());
  REQUIRE(f.calls.size() == 3);  // 02; 11; 11 / atomic_finish
  for (const auto& k : doc["kernels"]) {
    const ProfiledCall* c = nearest_call(f, k["lesson"], k["variant"], k["n"], k["block"]);
    REQUIRE(c);
    REQUIRE(c->n == k["n"].get<double>());
    const ProfiledLaunch& l = c->launches.at(k["launch"].get<std::size_t>());
    REQUIRE(l.launch == k["launch"].get<int>());
    REQUIRE(l.kernel == k["kernel"].get<std::string>());
    REQUIRE(l.grid == k["grid"].get<long long>());
    const auto& kc = k["counters"];
    REQUIRE(*l.counters.duration_us == kc["duration_us"].get<double>());
    REQUIRE(*l.counters.dram_pct_of_peak == kc["dram_pct_of_peak"].get<double>());
    REQUIRE(*l.counters.achieved_occupancy_pct == kc["achieved_occupancy_pct"].get<double>());
    REQUIRE(*l.counters.shared_ld_bank_conflicts == kc["shared_ld_bank_conflicts"].get<double>());
    REQUIRE(*l.counters.threads_per_instruction == kc["threads_per_instruction"].get<double>());
    REQUIRE(l.counters.occupancy_limiter == kc["occupancy_limiter"].get<std::string>());
    REQUIRE(l.counters.blocks_per_sm_limit.at("warps") ==
            kc["blocks_per_sm_limit"]["warps"].get<double>());
    REQUIRE(l.counters.top_stalls.size() == kc["top_stalls"].size());
    REQUIRE(l.counters.top_stalls[0].reason == kc["top_stalls"][0]["reason"].get<std::string>());
  }
  // Lesson 02 at 2^20 is three launches, in launch order: 4096 blocks, then 16, then 1.
  const ProfiledCall* c02 = nearest_call(f, 2, "", 1 << 20, 256);
  REQUIRE(c02->launches.size() == 3);
  REQUIRE(c02->launches[0].grid == 4096);
  REQUIRE(c02->launches[1].grid == 16);
  REQUIRE(c02->launches[2].grid == 1);
}

TEST_CASE("the nearest profiled call: the same lesson and variant, the nearest block, then n",
          "[profile]") {
  const ProfileFile fixture = load_profile(kFixture);
  REQUIRE(nearest_call(fixture, 2, "", 512, 256) == &fixture.calls[0]);  // a trace's n
  REQUIRE(nearest_call(fixture, 12, "atomic_finish", 64, 32)->variant == "atomic_finish");
  REQUIRE(nearest_call(fixture, 12, "", 64, 32)->variant.empty());
  REQUIRE(nearest_call(fixture, 3, "", 1 << 20, 256) == nullptr);           // not profiled
  REQUIRE(nearest_call(fixture, 2, "butterfly", 1 << 20, 256) == nullptr);  // nor this variant

  const ProfileFile f = parse_profile(
      profile_of(kernel(3, "", 1 << 20, 256, 0) + "," + kernel(3, "", 1 << 24, 256, 0) + "," +
                 kernel(3, "", 1 << 20, 512, 0) + "," + kernel(3, "", 1 << 24, 256, 1)),
      "p.json");
  REQUIRE(f.calls.size() == 3);
  REQUIRE(f.calls[1].launches.size() == 2);  // 2^24 at block 256: launches 0 and 1
  auto at = [&](double n, int block) {
    const ProfiledCall* c = nearest_call(f, 3, "", n, block);
    return std::pair{c->n, c->block};
  };
  REQUIRE(at(1 << 23, 256) == std::pair{double(1 << 24), 256});
  REQUIRE(at(1 << 10, 256) == std::pair{double(1 << 20), 256});
  REQUIRE(at(1 << 24, 512) == std::pair{double(1 << 20), 512});   // the block first
  REQUIRE(at(1 << 24, 1024) == std::pair{double(1 << 20), 512});  // the nearest block
  REQUIRE(at(1 << 25, 0) == std::pair{double(1 << 24), 256});     // block unknown: n decides

  const std::vector<ProfileFile> files{f, fixture};
  REQUIRE(find_profiled(files, "", 2, "", 512, 256).file == &files[1]);
  REQUIRE(find_profiled(files, "GPU X", 2, "", 512, 256).call == nullptr);  // another device
  REQUIRE(find_profiled(files, "GPU X", 3, "", 512, 256).file == &files[0]);
}

TEST_CASE("profiles with the wrong schema, version or fields are refused on one line",
          "[profile]") {
  REQUIRE(refusal(R"({"schema":"reducelab.results","version":1,"runs":[]})") ==
          "p.json: schema is \"reducelab.results\", not \"reducelab.profile\"");
  REQUIRE(refusal(R"({"schema":"reducelab.profile","version":2,"kernels":[]})") ==
          "p.json: version is 2, only version 1 is understood");
  REQUIRE(refusal(R"({"schema":"reducelab.profile","version":"1","kernels":[]})") ==
          "p.json: version is \"1\", only version 1 is understood");
  REQUIRE(refusal(R"({"schema":"reducelab.profile","version":1,"kernels":[]})") ==
          "p.json: missing field 'device'");
  REQUIRE(refusal(R"({"schema":"reducelab.profile","version":1,"device":{},"kernels":[]})") ==
          "p.json: missing field 'device.name'");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 256, 0, R"({"top_stalls":[{"reason":"x"}]})"))) ==
          "p.json: kernel 0: missing field 'counters.top_stalls[0].warps_per_issue'");
  REQUIRE(refusal(R"({"schema":"reducelab.profile","version":1,"device":{"name":"X"}})") ==
          "p.json: missing field 'kernels'");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 256, 0) + "," + kernel(3, "", 1024, 256, 0))) ==
          "p.json: kernel 1: launch 0 of lesson 3 \"\" at n=1024, block 256 is listed twice");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 0, 0))) ==
          "p.json: kernel 0: block must be an integer 1..1048576");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 256, 0, R"({"duration_us":-1})"))) ==
          "p.json: kernel 0: counters.duration_us must not be negative");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 256, 0, R"({"top_stalls":[{"reason":1}]})"))) ==
          "p.json: kernel 0: counters.top_stalls[0].reason must be a string");
  REQUIRE(refusal(profile_of(kernel(3, "", 1024, 256, 0, R"({"dram_pct_of_peak":"high"})"))) ==
          "p.json: kernel 0: counters.dram_pct_of_peak must be a finite number");
  REQUIRE(refusal("{").rfind("p.json: not valid JSON", 0) == 0);
  REQUIRE(refusal(profile_of("")).empty());  // no kernels: a profile of nothing, not an error
  try {
    load_profile("/no/such/profile.json");
    FAIL("a missing file loaded");
  } catch (const ResultsError& e) {
    REQUIRE(std::string(e.what()) == "/no/such/profile.json: no such file");
  }
  REQUIRE(looks_like_profile(R"({"schema": "reducelab.profile"})"));
  REQUIRE(!looks_like_profile(R"({"schema": "reducelab.results"})"));
}

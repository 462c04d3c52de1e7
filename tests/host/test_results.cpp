// The results record is read by the viewer and by people: its schema fields must be there and
// right.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "common/host/device.h"
#include "common/host/results.h"

using namespace rl;

TEST_CASE("a case becomes a versioned JSON record with its measurements", "[results]") {
  auto device = make_sim_device();
  RunOptions o;
  o.seed = 5;
  CaseResult r;
  r.plan.lesson = 3;
  r.plan.slug = "sequential_addressing";
  r.plan.title = "Sequential addressing";
  r.plan.backend = Backend::gpu;
  r.n = 1024;
  r.block = 256;
  r.check.got = 10.5;
  r.check.reference.sum = 10.0;
  r.check.tolerance = 0.25;
  r.check.verified = false;
  r.timing = Timing{{0.002, 0.001, 0.003, 20}, 8, false};
  r.gbps = 2.048;
  Baseline b;
  b.n = 1024;
  b.ceiling = Device::Ceiling{4.096, 3.0, Timing{{0.001, 0.001, 0.001, 20}, 8, false}, 256};
  b.cub = Timing{{0.004, 0.004, 0.004, 20}, 8, false};

  const auto j = to_json(r, o, &b);
  CHECK(j["lesson"] == 3);
  CHECK(j["slug"] == "sequential_addressing");
  CHECK(j["n"] == 1024);
  CHECK(j["dtype"] == "float32");
  CHECK(j["abs_error"].get<double>() == Approx(0.5));
  CHECK(j["verified"] == false);
  CHECK(j["time"]["median_ms"].get<double>() == Approx(0.002));
  CHECK(j["pct_of_ceiling"].get<double>() == Approx(50.0));
  CHECK(j["vs_cub"].get<double>() == Approx(2.0));

  const auto doc = results_document(*device, o, {j}, {to_json(b)});
  CHECK(doc["schema"] == "reducelab.results");
  CHECK(doc["version"] == results_schema_version);
  CHECK(doc["device"]["simulated"] == true);
  CHECK(doc["baselines"][0]["stream_read_gbps"].get<double>() == Approx(4.096));
  CHECK(doc["runs"].size() == 1);
}

TEST_CASE("simulated timings carry no GB/s", "[results]") {
  CaseResult r;
  r.plan.slug = "x";
  r.timing = Timing{{5.0, 5.0, 5.0, 3}, 1, true};
  const auto j = to_json(r, RunOptions{}, nullptr);
  CHECK(j["time"]["simulated"] == true);
  CHECK_FALSE(j.contains("gbps"));
}

TEST_CASE("the results file is written whole, and a bad path is a usage error", "[results]") {
  const std::string path = "results_test_output.json";
  write_json_file(path, nlohmann::json{{"a", 1}});
  std::ifstream f(path);
  CHECK(nlohmann::json::parse(f)["a"] == 1);
  std::remove(path.c_str());
  CHECK_THROWS_AS(write_json_file("/nonexistent-dir/x.json", nlohmann::json{}), UsageError);
  try {
    write_json_file("/nonexistent-dir/x.json", nlohmann::json{}, "--trace");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "--trace: cannot write '/nonexistent-dir/x.json' (No such file or directory)");
  }
}

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

TEST_CASE("a rung is read against the ceiling and CUB launched as it was", "[results]") {
  const LaunchWay plain{}, pdl{LaunchPath::stream, true}, graph_pdl{LaunchPath::graph, true};
  const auto timing = [](double ms, LaunchWay way) {
    Timing t{{ms, ms, ms, 20}, 8, false};
    t.way = way;
    return t;
  };
  Baseline b;
  b.n = 1 << 20;
  b.ceiling = Device::Ceiling{800.0, 0.0, timing(0.005, plain), 256};
  b.ceilings.push_back(Device::Ceiling{900.0, 0.0, timing(0.0045, pdl), 256});
  b.cub = timing(0.010, plain);
  b.cub_graph = timing(0.004, LaunchWay{LaunchPath::graph, false});

  CaseResult r;
  r.plan.way = pdl;
  r.timing = timing(0.0048, pdl);
  // 4.5 us against 4.8 us: below 100, where the plain ceiling (5 us) would give above it.
  REQUIRE(percent_of_ceiling(r, b));
  CHECK(*percent_of_ceiling(r, b) == Approx(100.0 * 0.0045 / 0.0048));
  CHECK(*times_cub(r, b) == Approx(0.010 / 0.0048));
  // A mismatched pair is refused, naming both ways.
  CHECK_THROWS_WITH(percent_of_ceiling(timing(0.0048, pdl), *b.ceiling),
                    Catch::Contains("launched stream+PDL") && Catch::Contains("launched stream"));
  // No ceiling measured the rung's way: no figure rather than the plain one.
  r.timing = timing(0.003, graph_pdl);
  CHECK_FALSE(percent_of_ceiling(r, b));
  CHECK(*times_cub(r, b) == Approx(0.004 / 0.003));  // CUB in a graph

  // The record says how it was launched, its device time, and whether it was launch-bound.
  r.timing = timing(0.0048, pdl);
  r.device_ms = Summary{0.0030, 0.0029, 0.0032, 30};
  const auto j = to_json(r, RunOptions{}, &b);
  CHECK(j["time"]["launch"] == "stream+PDL");
  CHECK(j["device_time"]["median_ms"].get<double>() == Approx(0.0030));
  CHECK(j["launch_bound"] == true);  // 3.0 us of 4.8: the GPU idle over a fifth of the time
  CHECK(j["pct_of_ceiling"].get<double>() < 100.0);
  r.device_ms = Summary{0.0045, 0.0044, 0.0046, 30};
  CHECK(to_json(r, RunOptions{}, &b)["launch_bound"] == false);

  // A rung that read faster than the ceiling kernel launched its way becomes that way's ceiling:
  // itself 100%, the others read against it, never above 100.
  CaseResult fast = r;
  fast.check.verified = true;
  fast.timing = timing(0.0040, pdl);
  b.note_read(fast);
  REQUIRE(b.fastest_for(pdl));
  CHECK(*percent_of_ceiling(fast, b) == Approx(100.0));
  CHECK(*percent_of_ceiling(r, b) == Approx(100.0 * 0.0040 / 0.0048));
  CHECK(b.ceiling_ms(plain) == Approx(0.005));  // the plain way keeps its kernel's
  CaseResult wrong = fast;
  wrong.check.verified = false;
  wrong.timing = timing(0.0001, pdl);
  b.note_read(wrong);  // a wrong result reads nothing
  CHECK(b.ceiling_ms(pdl) == Approx(0.0040));
  const auto base = to_json(b);
  CHECK(base["stream_read_ways"][0]["launch"] == "stream+PDL");
  CHECK(base["cub_graph"]["launch"] == "graph");
}

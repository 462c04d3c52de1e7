#include <algorithm>

#include <catch2/catch.hpp>

#include "viewer/results_model.h"

using namespace rl::viewer;

namespace {
const std::string kData = std::string(RL_REPO_ROOT) + "/viewer/testdata/";
}

TEST_CASE("a real ladder file becomes one series per (lesson, variant) plus ceiling and CUB",
          "[results]") {
  const ResultsFile f = load_results(kData + "ladder-224.json");
  REQUIRE(f.device == "NVIDIA H100 80GB HBM3");
  REQUIRE(f.theoretical_gbps);
  REQUIRE(!f.runs.empty());
  const auto series = build_series({f});
  REQUIRE(series.size() >= 3);
  REQUIRE(series.front().lesson == 1);
  REQUIRE(series.front().label == "01 interleaved_divergent");
  REQUIRE(series[series.size() - 2].kind == SeriesKind::ceiling);
  REQUIRE(series.back().kind == SeriesKind::cub);
  REQUIRE(series.front().points.size() == 1);
  REQUIRE(series.front().points[0].n == 16777216);
  REQUIRE(series.front().points[0].gbps == Approx(373.92).epsilon(1e-3));
}

TEST_CASE("several files merge into series over n, sorted", "[results]") {
  std::vector<ResultsFile> files;
  for (const char* name : {"ladder-228.json", "ladder-220.json", "ladder-224.json"})
    files.push_back(load_results(kData + name));
  const auto series = build_series(files);
  const auto sizes = sizes_of(series);
  // The 2^28 file's runs failed verification and carry no gbps: only its baselines plot.
  REQUIRE(sizes == std::vector<double>{1 << 20, 1 << 24});
  REQUIRE(series[series.size() - 2].points.back().n == 1 << 28);
  for (const auto& s : series) {
    for (std::size_t i = 1; i < s.points.size(); ++i) REQUIRE(s.points[i - 1].n < s.points[i].n);
  }
  const auto bars = bars_at(series, 1 << 24, false);
  REQUIRE(!bars.empty());
  REQUIRE(bars[0].speedup == Approx(1.0));
  for (const auto& b : bars) REQUIRE(b.pct_of_ceiling > 0);
}

TEST_CASE("results files with the wrong schema, version or types are refused on one line",
          "[results]") {
  auto refusal = [](const std::string& text) {
    try {
      parse_results(text, "r.json");
    } catch (const ResultsError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  REQUIRE(refusal(R"({"schema":"reducelab.trace","version":1,"runs":[]})") ==
          "r.json: schema is \"reducelab.trace\", not \"reducelab.results\"");
  REQUIRE(refusal(R"({"schema":"reducelab.results","version":2,"runs":[]})") ==
          "r.json: version is 2, only version 1 is understood");
  REQUIRE(refusal(R"({"schema":"reducelab.results","version":1})") ==
          "r.json: missing field 'runs'");
  REQUIRE(
      refusal(
          R"({"schema":"reducelab.results","version":1,"runs":[{"lesson":1,"slug":"a","n":"big"}]})") ==
      "r.json: run 0: n must be a finite number");
  REQUIRE(refusal("{").rfind("r.json: not valid JSON", 0) == 0);
  REQUIRE(refusal(std::string(10000, '[')) == "r.json: nesting deeper than 64 levels");
  REQUIRE(refusal(R"({"schema":"reducelab.results","version":1,"runs":[]})").empty());
  REQUIRE(format_size(1 << 24) == "2^24");
  REQUIRE(format_size(1000) == "1000");
}

TEST_CASE("the committed results: one run per picture, lesson 22's GPUs apart", "[results]") {
  std::vector<ResultsFile> files;
  for (const char* name : {"h100-bench.json", "h200x2-nccl-scaling.json"}) {
    files.push_back(load_results(std::string(RL_REPO_ROOT) + "/assets/results/" + name));
  }
  const auto runs = group_by_run(files);
  REQUIRE(runs.size() == 2);
  const RunResults& h100 = runs[0];
  REQUIRE(h100.device == "NVIDIA H100 80GB HBM3");
  REQUIRE(*h100.peak == Approx(3352.32));
  REQUIRE(h100.scaling.empty());
  double most = 0;
  for (const auto& s : h100.series)
    for (const auto& p : s.points) most = std::max(most, p.gbps);
  REQUIRE(most < *h100.peak);  // nothing of another device on its plot
  for (const auto& s : h100.series) REQUIRE(s.lesson != 22);
  const RunResults& h200 = runs[1];
  REQUIRE(h200.device == "NVIDIA H200");
  REQUIRE(*h200.peak == Approx(4814.304));
  REQUIRE(h200.series.empty());  // its only runs are lesson 22's, on one and two GPUs
  REQUIRE(h200.scaling.size() == 2);
  REQUIRE(h200.scaling[0].gpus == 1);
  REQUIRE(h200.scaling[1].gpus == 2);
  REQUIRE(h200.scaling[1].gbps == Approx(9113.4).epsilon(1e-3));
  REQUIRE(h200.scaling[1].efficiency == Approx(0.9943).epsilon(1e-3));
  REQUIRE(h200.max_gpus == 2);
  REQUIRE(h200.label().find("x2") != std::string::npos);
}

TEST_CASE("two runs of one device stay two pictures, each in the order the course climbs",
          "[results]") {
  const std::string dir = std::string(RL_REPO_ROOT) + "/assets/results/";
  const std::vector<ResultsFile> files{load_results(dir + "h100-bench.json"),
                                       load_results(dir + "h100-hopper-2p20.json")};
  REQUIRE(files[0].device == files[1].device);
  const auto runs = group_by_run(files);
  REQUIRE(runs.size() == 2);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    REQUIRE(runs[i].file == files[i].path);
    REQUIRE(runs[i].label().find(files[i].created_utc.substr(0, 10)) != std::string::npos);
    // The series are the file's runs, nothing of the other file: every (lesson, variant, n) of a
    // picture is in its own file.
    for (const auto& s : runs[i].series) {
      if (s.kind != SeriesKind::lesson) continue;
      for (const auto& p : s.points) {
        const bool in_file =
            std::any_of(files[i].runs.begin(), files[i].runs.end(), [&](const RunRow& r) {
              return r.lesson == s.lesson && r.variant == s.variant && r.n == p.n;
            });
        REQUIRE(in_file);
      }
    }
  }
  // The bench's order is the course's: the lessons' own kernels in the order the file lists them,
  // which is the order of their folders' numbers.
  std::vector<int> course, shown;
  for (const auto& r : files[0].runs)
    if (r.variant.empty() && r.n == (1 << 24)) course.push_back(r.lesson);
  for (const auto& b : bars_at(runs[0].series, 1 << 24, false))
    shown.push_back(std::stoi(b.label.substr(0, 2)));
  REQUIRE(shown == course);
  REQUIRE(std::is_sorted(shown.begin(), shown.end()));
}

TEST_CASE("the bars say how each run was launched, its device time and whether it was launch-bound",
          "[results]") {
  const auto files = std::vector<ResultsFile>{
      load_results(std::string(RL_REPO_ROOT) + "/assets/results/h100-bench.json")};
  const auto series = build_series(files);
  const auto bars = bars_at(series, 1 << 20, true);
  const auto find = [&](const std::string& label) -> const Bar& {
    const auto it =
        std::find_if(bars.begin(), bars.end(), [&](const Bar& b) { return b.label == label; });
    REQUIRE(it != bars.end());
    return *it;
  };
  // Lesson 15's own plan: recorded into a graph, with the dependent launch, its device time known.
  const Bar& graph = find("15 launch_cost");
  CHECK(graph.launch == "graph+PDL");
  CHECK(graph.device_ms > 0);
  const std::string text = bar_times_text(graph);
  CHECK(text.find("(launched graph+PDL)") != std::string::npos);
  CHECK(text.find("device time ") != std::string::npos);
  // Whatever the run says of a bar's launch-bound flag, its tooltip says the same.
  for (const Bar& b : bars)
    CHECK((bar_times_text(b).find("launch-bound") != std::string::npos) == b.launch_bound);
  // Some rungs at 2^20 waited for the host in this run.
  CHECK(std::any_of(bars.begin(), bars.end(), [](const Bar& b) { return b.launch_bound; }));
  // An older record, with neither field, says nothing of them.
  CHECK(bar_times_text(Bar{}).empty());
}

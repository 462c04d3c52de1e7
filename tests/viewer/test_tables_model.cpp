// The lesson tables beyond the sum (13-16) as the viewer reads them: labels from whichever fields a
// run has, ratios kept, and one-line errors for malformed files.
#include <catch2/catch.hpp>

#include "viewer/tables_model.h"

#include <fstream>
#include <sstream>

using namespace rl::viewer;

TEST_CASE("a lesson table reads into labelled rows with their ratios", "[viewer][comparison]") {
  const std::string text = R"({"schema": "reducelab.ops", "version": 1, "backend": "gpu",
    "device": {"name": "NVIDIA H200"},
    "runs": [{"op": "argmax", "dtype": "float16", "gbps": 4100.5, "pct_of_sum": 97.9, "vs_cub": 1.02, "verified": true},
             {"op": "sum", "dtype": "float32", "shape": [4096, 4096], "dims": [1], "gbps": 4000, "vs_torch": 1.3,
              "vs_best": 1.1, "verified": true},
             {"op": "sum", "dtype": "int32", "verified": false}]})";
  REQUIRE(looks_like_lesson_tables(text));
  const LessonTable f = parse_lesson_table(text, "t.json");
  CHECK(f.schema == "reducelab.ops");
  CHECK(f.device == "NVIDIA H200");
  REQUIRE(f.rows.size() == 3);
  CHECK(f.rows[0].label == "argmax float16");
  CHECK(*f.rows[0].gbps == Approx(4100.5));
  CHECK(*f.rows[0].pct_of_sum == Approx(97.9));
  CHECK(*f.rows[0].vs_cub == Approx(1.02));
  CHECK_FALSE(f.rows[0].vs_torch);
  CHECK(f.rows[1].label == "sum float32 4096x4096 dims {1}");
  CHECK(*f.rows[1].vs_best == Approx(1.1));
  CHECK_FALSE(f.rows[2].gbps);  // simulated runs carry no GB/s
  CHECK_FALSE(f.rows[2].verified);
}

TEST_CASE("the runner's merged record of lessons 18-21 reads with each row's lesson",
          "[viewer][comparison]") {
  const std::string text = R"({"schema": "reducelab.beyond", "version": 1, "backend": "sim",
    "runs": [{"lesson": "18_operators_and_types", "op": "sum", "dtype": "float32", "verified": true},
             {"lesson": "21_any_axes", "op": "sum", "dtype": "float32", "strategy": "rows", "axes": [3],
              "gbps": 3000, "vs_best": 1.5, "verified": true}],
    "lessons": {"18_operators_and_types": {"schema": "reducelab.ops"}}})";
  REQUIRE(looks_like_lesson_tables(text));
  const LessonTable f = parse_lesson_table(text, "beyond.json");
  CHECK(f.schema == "reducelab.beyond");
  REQUIRE(f.rows.size() == 2);
  CHECK(f.rows[0].label == "18 sum float32");
  CHECK(f.rows[1].label == "21 sum float32 rows axes {3}");
  CHECK(*f.rows[1].vs_best == Approx(1.5));
}

TEST_CASE("the sum ladder's records and traces are not lesson tables", "[viewer][comparison]") {
  CHECK_FALSE(looks_like_lesson_tables(R"({"schema": "reducelab.results", "version": 1})"));
  CHECK_FALSE(looks_like_lesson_tables(R"({"schema": "reducelab.trace", "version": 1})"));
  CHECK_FALSE(looks_like_lesson_tables("not json"));
}

TEST_CASE("a malformed lesson table is a one-line error", "[viewer][comparison]") {
  auto error_of = [](const std::string& text) {
    try {
      parse_lesson_table(text, "bad.json");
    } catch (const ResultsError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(
      error_of(
          R"({"schema": "reducelab.ops", "version": 1, "runs": [{"op": "sum", "gbps": "fast"}]})"),
      Catch::StartsWith("bad.json: run 0: gbps must be a finite number"));
  CHECK_THAT(error_of(R"({"schema": "reducelab.ops", "version": 2, "runs": []})"),
             Catch::Contains("version 1"));
  CHECK_THAT(error_of(R"({"schema": "reducelab.ops", "version": 1})"),
             Catch::Contains("runs must be an array"));
  CHECK_THAT(error_of(R"({"schema": "reducelab.ops", "version": 1, "runs": [{"gbps": -1}]})"),
             Catch::Contains("negative"));
  CHECK_THAT(error_of(R"({"schema": "reducelab.ops", "ver)"), Catch::Contains("not valid JSON"));
  for (const std::string& e :
       {error_of("[1, 2]"),
        error_of(R"({"schema": "reducelab.ops", "version": 1, "runs": [{"gbps": -1}]})")})
    CHECK(e.find('\n') == std::string::npos);
}

TEST_CASE("a merged record and its lessons' own files: each table shown once, in lesson order",
          "[viewer][comparison]") {
  std::vector<LessonTable> tables;
  for (const char* name : {"h200-axes.json", "h200-beyond.json", "h200-columns.json",
                           "h200-ops.json", "h200-rows.json"}) {
    std::ifstream in(std::string(RL_REPO_ROOT) + "/assets/results/" + name);
    std::stringstream s;
    s << in.rdbuf();
    for (auto& t : parse_lesson_tables(s.str(), name)) tables.push_back(std::move(t));
  }
  REQUIRE(tables.size() == 8);  // 4 files + the merged record's 4 lessons
  const auto shown = unique_tables(tables);
  REQUIRE(shown.size() == 4);
  for (int i = 0; i < 4; ++i) REQUIRE(shown[static_cast<std::size_t>(i)]->lesson == 18 + i);
  std::size_t rows = 0;
  for (const auto* t : shown) rows += t->rows.size();
  REQUIRE(rows == 66);  // the merged record's runs, each once
}

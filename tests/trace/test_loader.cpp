// The loader refuses every malformed trace with one line naming the file and the first problem.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>

#include "common/trace/trace_loader.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;

namespace {

json valid() { return json::parse(test::read_text(test::data_path("seq8_two_launches.json"))); }

// The message parse_trace gives for the valid trace changed by `edit` ("" when it loads).
std::string refusal(const std::function<void(json&)>& edit) {
  json doc = valid();
  edit(doc);
  try {
    parse_trace(doc.dump(), "t.json");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

std::string refusal_of_text(const std::string& text) {
  try {
    parse_trace(text, "t.json");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the hand-written traces and every asset trace load", "[loader]") {
  REQUIRE_NOTHROW(load_trace(test::data_path("seq8_two_launches.json")));
  REQUIRE_NOTHROW(load_trace(test::data_path("interleaved8.json")));
  const std::filesystem::path assets = std::filesystem::path(RL_REPO_ROOT) / "assets" / "traces";
  if (std::filesystem::is_directory(assets)) {
    for (const auto& entry : std::filesystem::directory_iterator(assets)) {
      if (entry.path().extension() != ".json") continue;
      INFO(entry.path().string());
      REQUIRE_NOTHROW(load_trace(entry.path().string()));
    }
  }
}

TEST_CASE("refusals name the file and the first problem on one line", "[loader]") {
  struct Case {
    const char* expected;
    std::function<void(json&)> edit;
  };
  const std::vector<Case> cases = {
      {"t.json: event 3: block 9 is outside launch 0's grid of 2", [](json& d) { d["events"][3][3] = 9; }},
      {"t.json: schema is \"reducelab.results\", not \"reducelab.trace\"", [](json& d) { d["schema"] = "reducelab.results"; }},
      {"t.json: version is 2, only version 1 is understood", [](json& d) { d["version"] = 2; }},
      {"t.json: missing field 'events'", [](json& d) { d.erase("events"); }},
      {"t.json: missing field 'overflow'", [](json& d) { d.erase("overflow"); }},
      {"t.json: launch 1: missing field 'grid'", [](json& d) { d["launches"][1].erase("grid"); }},
      {"t.json: input has 7 numbers, n says 8", [](json& d) { d["input"].erase(0); }},
      {"t.json: input has 8 numbers, n says 1000000000", [](json& d) { d["n"] = 1000000000; }},
      {"t.json: input[2] must be a number, not string", [](json& d) { d["input"][2] = "NaN"; }},
      {"t.json: block 0 is out of range [1, 1024]", [](json& d) { d["block"] = 0; }},
      {"t.json: launch 0: block 2048 is out of range [1, 1024]", [](json& d) { d["launches"][0]["block"] = 2048; }},
      {"t.json: launch 0: grid 0 is out of range [1, 2147483647]", [](json& d) { d["launches"][0]["grid"] = 0; }},
      {"t.json: event 0: has 10 fields, not 11", [](json& d) { d["events"][0].erase(10); }},
      {"t.json: event 0: launch 5 does not exist (2 launches)", [](json& d) { d["events"][0][0] = 5; }},
      {"t.json: event 0: kind \"add\" is not one of load, combine, shuffle, store, atomic, barrier",
       [](json& d) { d["events"][0][2] = "add"; }},
      {"t.json: event 0: thread 4 is outside launch 0's block of 4", [](json& d) { d["events"][0][4] = 4; }},
      {"t.json: event 0: thread -1 is only for barriers", [](json& d) { d["events"][0][4] = -1; }},
      {"t.json: event 0: dst_space \"global\" is not shared, register or a name in buffers",
       [](json& d) { d["events"][0][5] = "global"; }},
      {"t.json: event 0: dst_index -3 is negative", [](json& d) { d["events"][0][6] = -3; }},
      {"t.json: event 0: dst_index 4 is outside launch 0's block of 4", [](json& d) { d["events"][0][6] = 4; }},
      {"t.json: event 0: src_index 8 is outside input of n = 8", [](json& d) { d["events"][0][8] = 8; }},
      {"t.json: event 0: value must be a number, not null", [](json& d) { d["events"][0][9] = nullptr; }},
      {"t.json: event 0: step must be an integer, not a fraction", [](json& d) { d["events"][0][1] = 0.5; }},
      {"t.json: events has 25 entries, more than capacity 10", [](json& d) { d["capacity"] = 10; }},
      {"t.json: overflow must be a boolean, not string", [](json& d) { d["overflow"] = "no"; }},
      {"t.json: the top level must be an object, not array", [](json& d) { d = json::array({1, 2}); }},
      {"t.json: event 0: block 18446744073709551615 is out of range [0, 2147483647]",
       [](json& d) { d["events"][0][3] = std::numeric_limits<std::uint64_t>::max(); }},
      {"t.json: backend \"tpu\" is not \"gpu\" or \"sim\"", [](json& d) { d["backend"] = "tpu"; }},
      {"t.json: buffers[1] \"input\" is named twice", [](json& d) { d["buffers"][1] = "input"; }},
      {"t.json: launches is empty", [](json& d) { d["launches"] = json::array(); }},
  };
  for (const auto& c : cases) {
    const std::string msg = refusal(c.edit);
    INFO(c.expected);
    REQUIRE(msg == c.expected);
    REQUIRE(msg.find('\n') == std::string::npos);
  }
}

TEST_CASE("overflowed traces load and say so", "[loader]") {
  json doc = valid();
  doc["overflow"] = true;
  REQUIRE(parse_trace(doc.dump(), "t.json").overflow);
}

TEST_CASE("text that is not a trace is refused on one line", "[loader]") {
  REQUIRE(refusal_of_text("").rfind("t.json: not valid JSON: ", 0) == 0);
  REQUIRE(refusal_of_text("{\"schema\": \"reducelab.trace\",").rfind("t.json: not valid JSON: ", 0) == 0);
  REQUIRE(refusal_of_text(std::string(100000, '[')) == "t.json: nesting deeper than 32 levels");
  REQUIRE(refusal_of_text("{\"n\": 1e999}").rfind("t.json: not valid JSON: number overflow", 0) == 0);
  const std::string bad_utf8 = refusal_of_text("{\"schema\": \"\xff\xfe\n\"}");
  REQUIRE(bad_utf8.rfind("t.json: not valid JSON", 0) == 0);
  for (char ch : bad_utf8) REQUIRE((ch >= 0x20 && ch < 0x7f));
  REQUIRE(refusal_of_text("42") == "t.json: the top level must be an object, not an integer");
}

TEST_CASE("load_trace names missing and unreadable files", "[loader]") {
  try {
    load_trace("/nonexistent/trace.json");
    FAIL("no throw");
  } catch (const TraceError& e) {
    REQUIRE(std::string(e.what()) == "/nonexistent/trace.json: no such file");
  }
  try {
    load_trace(RL_TRACE_TEST_DATA);
    FAIL("no throw");
  } catch (const TraceError& e) {
    REQUIRE(std::string(e.what()) == std::string(RL_TRACE_TEST_DATA) + ": not a regular file");
  }
}

TEST_CASE("files over the size limit are refused before parsing", "[loader]") {
  const std::string big(kMaxTraceBytes + 1, ' ');
  REQUIRE(refusal_of_text(big) == "t.json: file of 268435457 bytes is over the 256 MiB limit");
}

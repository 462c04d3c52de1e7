// The loader refuses every malformed trace with one line naming the file and the first problem.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>

#include "common/trace/trace_loader.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;

namespace {

constexpr const char* kV1 =
    "trace format version 1 is no longer read; record it again with the lesson's --trace FILE";

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

TEST_CASE("the hand-written traces load", "[loader]") {
  REQUIRE_NOTHROW(load_trace(test::data_path("seq8_two_launches.json")));
  REQUIRE_NOTHROW(load_trace(test::data_path("interleaved8.json")));
  const Trace t = load_trace(test::data_path("seq8_two_launches.json"));
  REQUIRE(t.version == 2);
  REQUIRE(t.seed == 1);
  REQUIRE(t.distribution == "1, 2, ..., 8");
  REQUIRE(t.barriers);
  const Event& e = t.events[10];
  REQUIRE(e.kind == EventKind::combine);
  REQUIRE(e.block == 0);
  REQUIRE(e.thread == 1);
  REQUIRE(t.location_name(e.dst) == "shared[1]");
  REQUIRE(t.location_name(e.a.loc) == "shared[1]");
  REQUIRE(e.a.value == 2);
  REQUIRE(t.location_name(e.b.loc) == "shared[3]");
  REQUIRE(e.b.value == 4);
  REQUIRE(e.value == 6);
  REQUIRE(e.line == 28);
}

TEST_CASE(
    "every asset trace loads, or is version 1 and refused with the line that says to record it "
    "again",
    "[loader][assets]") {
  // assets/traces is re-recorded once the kernels emit version 2; until then its files are version
  // 1.
  const std::filesystem::path assets = std::filesystem::path(RL_REPO_ROOT) / "assets" / "traces";
  if (!std::filesystem::is_directory(assets)) return;
  for (const auto& entry : std::filesystem::directory_iterator(assets)) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    const json doc = json::parse(test::read_text(entry.path().string()), nullptr, false);
    if (doc.is_object() && doc.value("version", 0) == 1) {
      try {
        load_trace(entry.path().string());
        FAIL("a version 1 file loaded");
      } catch (const TraceError& e) {
        REQUIRE(std::string(e.what()) == entry.path().string() + ": " + kV1);
      }
    } else {
      REQUIRE_NOTHROW(load_trace(entry.path().string()));
    }
  }
}

TEST_CASE("a version 1 file is refused with one line that says to record it again", "[loader]") {
  try {
    load_trace(test::data_path("v1_seq8_two_launches.json"));
    FAIL("no throw");
  } catch (const TraceError& e) {
    REQUIRE(std::string(e.what()) == test::data_path("v1_seq8_two_launches.json") + ": " + kV1);
  }
  REQUIRE(refusal_of_text(R"({"schema": "reducelab.trace", "version": 1})") ==
          std::string("t.json: ") + kV1);
}

TEST_CASE("refusals name the file and the first problem on one line", "[loader]") {
  struct Case {
    const char* expected;
    std::function<void(json&)> edit;
  };
  const std::vector<Case> cases = {
      // The header.
      {"t.json: schema is \"reducelab.results\", not \"reducelab.trace\"",
       [](json& d) { d["schema"] = "reducelab.results"; }},
      {"t.json: version is 3, only version 2 is understood", [](json& d) { d["version"] = 3; }},
      {"t.json: version is \"2\", only version 2 is understood",
       [](json& d) { d["version"] = "2"; }},
      {"t.json: missing field 'events'", [](json& d) { d.erase("events"); }},
      {"t.json: missing field 'overflow'", [](json& d) { d.erase("overflow"); }},
      {"t.json: missing field 'seed'", [](json& d) { d.erase("seed"); }},
      {"t.json: missing field 'distribution'", [](json& d) { d.erase("distribution"); }},
      {"t.json: missing field 'barriers'", [](json& d) { d.erase("barriers"); }},
      {"t.json: seed must be an integer, not a fraction", [](json& d) { d["seed"] = 1.5; }},
      {"t.json: seed -1 is negative", [](json& d) { d["seed"] = -1; }},
      {"t.json: distribution must be a string, not an integer",
       [](json& d) { d["distribution"] = 3; }},
      {"t.json: barriers must be a boolean, not string", [](json& d) { d["barriers"] = "yes"; }},
      {"t.json: launch 1: missing field 'grid'", [](json& d) { d["launches"][1].erase("grid"); }},
      {"t.json: input has 7 numbers, n says 8", [](json& d) { d["input"].erase(0); }},
      {"t.json: input has 8 numbers, n says 1000000000", [](json& d) { d["n"] = 1000000000; }},
      {"t.json: input[2] must be a number, not string", [](json& d) { d["input"][2] = "NaN"; }},
      {"t.json: input[2] must be a number, not null", [](json& d) { d["input"][2] = nullptr; }},
      {"t.json: result must be a number or null, not string", [](json& d) { d["result"] = "36"; }},
      {"t.json: block 0 is out of range [1, 1024]", [](json& d) { d["block"] = 0; }},
      {"t.json: launch 0: block 2048 is out of range [1, 1024]",
       [](json& d) { d["launches"][0]["block"] = 2048; }},
      {"t.json: launch 0: grid 0 is out of range [1, 2147483647]",
       [](json& d) { d["launches"][0]["grid"] = 0; }},
      {"t.json: events has 28 entries, more than capacity 10", [](json& d) { d["capacity"] = 10; }},
      {"t.json: overflow must be a boolean, not string", [](json& d) { d["overflow"] = "no"; }},
      {"t.json: the top level must be an object, not array",
       [](json& d) {
         d = json::array({1, 2});
       }},
      {"t.json: backend \"tpu\" is not \"gpu\" or \"sim\"", [](json& d) { d["backend"] = "tpu"; }},
      {"t.json: buffers[1] \"input\" is named twice", [](json& d) { d["buffers"][1] = "input"; }},
      {"t.json: buffers[1] \"event\" is not a usable name",
       [](json& d) { d["buffers"][1] = "event"; }},
      {"t.json: launches is empty", [](json& d) { d["launches"] = json::array(); }},
      // Each field of an event.
      {"t.json: event 0: has 11 fields, not 14",
       [](json& d) { d["events"][0] = {0, 0, "load", 1, 0, "shared", 0, "input", 4, 5, 18}; }},
      {"t.json: event 0: has 13 fields, not 14", [](json& d) { d["events"][0].erase(13); }},
      {"t.json: event 0: must be an array, not object",
       [](json& d) { d["events"][0] = json::object(); }},
      {"t.json: event 0: launch 5 does not exist (2 launches)",
       [](json& d) { d["events"][0][0] = 5; }},
      {"t.json: event 23: launch 0 comes after events of launch 1 (events are in launch order)",
       [](json& d) { d["events"][23][0] = 0; }},
      {"t.json: event 0: kind \"add\" is not one of load, store, combine, shuffle, atomic, "
       "barrier, warp_barrier",
       [](json& d) { d["events"][0][1] = "add"; }},
      {"t.json: event 3: block 9 is outside launch 0's grid of 2",
       [](json& d) { d["events"][3][2] = 9; }},
      {"t.json: event 0: block 18446744073709551615 is out of range [0, 2147483647]",
       [](json& d) { d["events"][0][2] = std::numeric_limits<std::uint64_t>::max(); }},
      {"t.json: event 0: thread 4 is outside launch 0's block of 4",
       [](json& d) { d["events"][0][3] = 4; }},
      {"t.json: event 0: thread -1 is only for barriers", [](json& d) { d["events"][0][3] = -1; }},
      {"t.json: event 8: a barrier's thread must be -1, not 0",
       [](json& d) { d["events"][8][3] = 0; }},
      {"t.json: event 8: a warp_barrier's thread must be its warp's lane 0, not 3",
       [](json& d) {
         d["events"][8] = {0, "warp_barrier", 0, 3, "", 15, "", -1, 0, "", -1, 0, 0, 19};
       }},
      {"t.json: event 8: dst_index 0 is not a mask of 1 to 32 lanes",
       [](json& d) {
         d["events"][8] = {0, "warp_barrier", 0, 0, "", 0, "", -1, 0, "", -1, 0, 0, 19};
       }},
      {"t.json: event 8: dst_index 4294967296 is not a mask of 1 to 32 lanes",
       [](json& d) {
         d["events"][8] = {0, "warp_barrier", 0, 0, "", 4294967296LL, "", -1, 0, "", -1, 0, 0, 19};
       }},
      {"t.json: event 8: a barrier in a trace whose barriers is false",
       [](json& d) { d["barriers"] = false; }},
      {"t.json: event 0: dst_space \"global\" is not shared, register or a name in buffers",
       [](json& d) { d["events"][0][4] = "global"; }},
      {"t.json: event 0: dst_space \"event\" is not shared, register or a name in buffers",
       [](json& d) { d["events"][0][4] = "event"; }},
      {"t.json: event 0: dst_space \"\" is only for barriers",
       [](json& d) { d["events"][0][4] = ""; }},
      {"t.json: event 8: dst_space \"shared\" must be \"\" for a barrier",
       [](json& d) { d["events"][8][4] = "shared"; }},
      {"t.json: event 8: dst_index 0 is out of range [-1, -1]",
       [](json& d) { d["events"][8][5] = 0; }},
      {"t.json: event 0: dst_index -3 is negative", [](json& d) { d["events"][0][5] = -3; }},
      {"t.json: event 0: dst_index 4 is outside launch 0's block of 4",
       [](json& d) {
         d["events"][0][4] = "register";
         d["events"][0][5] = 4;
       }},
      {"t.json: event 0: dst_index 8 is outside input of n = 8",
       [](json& d) {
         d["events"][0][4] = "input";
         d["events"][0][5] = 8;
       }},
      {"t.json: event 0: a_space \"register\" is not \"\", const, event, shared or a name in "
       "buffers",
       [](json& d) { d["events"][0][6] = "register"; }},
      {"t.json: event 0: a_index 8 is outside input of n = 8",
       [](json& d) { d["events"][0][7] = 8; }},
      {"t.json: event 0: a_index -1 is negative", [](json& d) { d["events"][0][7] = -1; }},
      {"t.json: event 0: a_index 3 is out of range [-1, -1]",
       [](json& d) {
         d["events"][0][6] = "const";
         d["events"][0][7] = 3;
       }},
      {"t.json: event 0: a_value must be a number or null, not string",
       [](json& d) { d["events"][0][8] = "5"; }},
      {"t.json: event 10: b_index 12 is not an earlier event (this is event 10)",
       [](json& d) {
         d["events"][10][9] = "event";
         d["events"][10][10] = 12;
       }},
      {"t.json: event 10: b_index 10 is not an earlier event (this is event 10)",
       [](json& d) {
         d["events"][10][9] = "event";
         d["events"][10][10] = 10;
       }},
      {"t.json: event 10: b_index 8 names a barrier, which makes no value",
       [](json& d) {
         d["events"][10][9] = "event";
         d["events"][10][10] = 8;
       }},
      {"t.json: event 10: b_index 0 names an event of launch 0 block 1, not of this event's launch "
       "0 block 0",
       [](json& d) {
         d["events"][10][9] = "event";
         d["events"][10][10] = 0;
       }},
      {"t.json: event 22: a_index 4 names an event of launch 0 block 0, not of this event's launch "
       "1 block 0",
       [](json& d) {
         d["events"][22][6] = "event";
         d["events"][22][7] = 4;
       }},
      {"t.json: event 10: b_index 99999999999999 is out of range [-9223372036854775808, "
       "1099511627776]",
       [](json& d) {
         d["events"][10][9] = "event";
         d["events"][10][10] = 99999999999999LL;
       }},
      {"t.json: event 10: a combine adds two operands, but b_space is \"\"",
       [](json& d) {
         d["events"][10][9] = "";
         d["events"][10][10] = -1;
       }},
      {"t.json: event 0: a load reads operand a, but a_space is \"\"",
       [](json& d) { d["events"][0][6] = ""; }},
      {"t.json: event 0: a load reads one operand, but b_space is \"shared\"",
       [](json& d) { d["events"][0][9] = "shared"; }},
      {"t.json: event 8: a barrier reads no operand, but a_space is \"shared\"",
       [](json& d) { d["events"][8][6] = "shared"; }},
      {"t.json: event 0: value must be a number or null, not string",
       [](json& d) { d["events"][0][12] = "5"; }},
      {"t.json: event 0: line must be an integer, not a fraction",
       [](json& d) { d["events"][0][13] = 0.5; }},
      {"t.json: event 0: line -2 is out of range [0, 2147483647]",
       [](json& d) { d["events"][0][13] = -2; }},
  };
  for (const auto& c : cases) {
    const std::string msg = refusal(c.edit);
    INFO(c.expected);
    REQUIRE(msg == c.expected);
    REQUIRE(msg.find('\n') == std::string::npos);
  }
}

TEST_CASE("values may be null (NaN), operands constants or events, barriers warp-wide",
          "[loader]") {
  json doc = valid();
  doc["result"] = nullptr;
  doc["events"][11][8] = nullptr;   // a_value
  doc["events"][11][12] = nullptr;  // value
  // Thread 0 of block 0 adds a constant to the loaded shared[0]; then a warp barrier of lanes 0-3.
  doc["events"][16] = {0,  "combine", 0,       0,  "shared", 0,  "event",
                       11, nullptr,   "const", -1, 0,        10, 28};
  doc["events"][18] = {0, "warp_barrier", 0, 0, "", 15, "", -1, 0, "", -1, 0, 0, 29};
  const Trace t = parse_trace(doc.dump(), "t.json");
  REQUIRE(std::isnan(t.result));
  REQUIRE(std::isnan(t.events[11].a.value));
  REQUIRE(std::isnan(t.events[11].value));
  REQUIRE(t.events[16].a.loc.space.kind == SpaceKind::event);
  REQUIRE(t.events[16].a.loc.index == 11);
  REQUIRE(t.events[16].b.loc.space.kind == SpaceKind::constant);
  REQUIRE(t.events[18].kind == EventKind::warp_barrier);
  REQUIRE(t.events[18].mask == 15);
  REQUIRE(t.events[18].thread == 0);
}

TEST_CASE("overflowed traces load and say so", "[loader]") {
  json doc = valid();
  doc["overflow"] = true;
  REQUIRE(parse_trace(doc.dump(), "t.json").overflow);
}

TEST_CASE("text that is not a trace is refused on one line", "[loader]") {
  REQUIRE(refusal_of_text("").rfind("t.json: not valid JSON: ", 0) == 0);
  REQUIRE(
      refusal_of_text("{\"schema\": \"reducelab.trace\",").rfind("t.json: not valid JSON: ", 0) ==
      0);
  REQUIRE(refusal_of_text(std::string(100000, '[')) == "t.json: nesting deeper than 32 levels");
  REQUIRE(refusal_of_text("{\"n\": 1e999}").rfind("t.json: not valid JSON: number overflow", 0) ==
          0);
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

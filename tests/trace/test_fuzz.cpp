// Randomised and exhaustive mutations of valid traces: every outcome must be a valid Trace or a
// one-line TraceError, never a crash, a hang or another exception. Inputs that once found a bug
// live in tests/trace/corpus/ and are replayed here.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <random>

#include "common/trace/stale_reads.h"
#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;

namespace {

int accepted = 0;
int refused = 0;

// An independent oracle for what the loader accepted: FORMAT.md's rules, restated.
void check_valid(const Trace& t) {
  REQUIRE(t.schema == "reducelab.trace");
  REQUIRE(t.version == 2);
  REQUIRE(static_cast<std::int64_t>(t.input.size()) == t.n);
  for (double v : t.input) REQUIRE(std::isfinite(v));
  REQUIRE((t.block >= 1 && t.block <= 1024));
  REQUIRE(!t.launches.empty());
  for (const auto& l : t.launches) REQUIRE((l.grid >= 1 && l.block >= 1 && l.block <= 1024));
  REQUIRE(static_cast<std::int64_t>(t.events.size()) <= t.capacity);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    REQUIRE((e.launch >= 0 && e.launch < static_cast<int>(t.launches.size())));
    if (i > 0) REQUIRE(t.events[i - 1].launch <= e.launch);
    const Launch& l = t.launches[static_cast<std::size_t>(e.launch)];
    REQUIRE((e.block >= 0 && e.block < l.grid));
    REQUIRE((e.thread >= -1 && e.thread < l.block));
    REQUIRE((e.thread == -1) == (e.kind == EventKind::barrier));
    if (e.kind == EventKind::warp_barrier) REQUIRE((e.thread % 32 == 0 && e.mask != 0));
    if (is_barrier(e.kind)) REQUIRE(t.barriers);
    REQUIRE(is_barrier(e.kind) == (e.dst.space.kind == SpaceKind::none));
    REQUIRE(e.dst.space.kind != SpaceKind::constant);
    REQUIRE(e.dst.space.kind != SpaceKind::event);
    if (!is_barrier(e.kind)) {
      REQUIRE(e.dst.index >= 0);
      if (e.dst.space.kind == SpaceKind::reg) REQUIRE(e.dst.index < l.block);
      if (e.dst.space.kind == SpaceKind::buffer && e.dst.space.buffer == t.input_buffer())
        REQUIRE(e.dst.index < t.n);
    }
    REQUIRE(e.a.present() == !is_barrier(e.kind));
    REQUIRE(e.b.present() == adds(e.kind));
    for (const Operand* op : {&e.a, &e.b}) {
      const Location& loc = op->loc;
      REQUIRE(loc.space.kind != SpaceKind::reg);
      switch (loc.space.kind) {
        case SpaceKind::none:
        case SpaceKind::constant:
          REQUIRE(loc.index == -1);
          break;
        case SpaceKind::event: {
          REQUIRE((loc.index >= 0 && loc.index < static_cast<std::int64_t>(i)));
          const Event& src = t.events[static_cast<std::size_t>(loc.index)];
          REQUIRE(!is_barrier(src.kind));
          REQUIRE((src.launch == e.launch && src.block == e.block));
          break;
        }
        case SpaceKind::shared:
          REQUIRE(loc.index >= 0);
          break;
        case SpaceKind::buffer:
          REQUIRE(loc.index >= 0);
          REQUIRE((loc.space.buffer >= 0 && loc.space.buffer < static_cast<int>(t.buffers.size())));
          if (loc.space.buffer == t.input_buffer()) REQUIRE(loc.index < t.n);
          break;
        case SpaceKind::reg:
          break;
      }
    }
  }
}

// What the model derives from an accepted trace: a DAG in topological order, levels by the rules.
void check_dag(const Trace& t) {
  const Dag& dag = t.dag;
  std::size_t barriers = 0;
  for (const auto& e : t.events) barriers += is_barrier(e.kind) ? 1 : 0;
  REQUIRE(dag.nodes.size() == t.input.size() + t.events.size() - barriers);
  REQUIRE(dag.event_nodes.size() == t.events.size());
  REQUIRE(dag.event_levels.size() == t.events.size());
  for (const auto& n : dag.nodes) {
    REQUIRE(n.level >= 0);
    REQUIRE(n.level <= dag.max_level);
    for (int p : n.parents()) {
      REQUIRE((p >= 0 && p < n.id));
      REQUIRE(dag.nodes[static_cast<std::size_t>(p)].level <= n.level);
    }
  }
  if (t.events.size() + t.input.size() > 0)
    REQUIRE((dag.final_node >= 0 && dag.final_node < static_cast<int>(dag.nodes.size())));
}

// Parses `text`; a success must pass the oracle, give a self-consistent DAG and let the facts and
// the stale-read finder run; a failure must be one line naming the file.
void check_outcome(const std::string& text) {
  try {
    const Trace t = parse_trace(text, "fuzz.json");
    check_valid(t);
    check_dag(t);
    const TraceFacts f = compute_facts(t);
    REQUIRE(f.launches.size() == t.launches.size());
    for (const auto& s : find_stale_reads(t)) REQUIRE(s.describe().find('\n') == std::string::npos);
    ++accepted;
  } catch (const TraceError& e) {
    const std::string msg = e.what();
    REQUIRE(msg.rfind("fuzz.json: ", 0) == 0);
    REQUIRE(msg.find('\n') == std::string::npos);
    REQUIRE(msg.size() < 600);
    ++refused;
  }
}

// Byte ranges of the JSON number literals in `text` (outside strings).
std::vector<std::pair<std::size_t, std::size_t>> number_spans(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i + 1;
      while (j < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' ||
              text[j] == 'e' || text[j] == 'E' || text[j] == '+' || text[j] == '-')) {
        ++j;
      }
      out.emplace_back(i, j);
      i = j - 1;
    }
  }
  return out;
}

const char* const kHostile[] = {"1e999",
                                "-1",
                                "-2147483649",
                                "2147483648",
                                "18446744073709551616",
                                "9223372036854775807",
                                "-9223372036854775808",
                                "\"NaN\"",
                                "null",
                                "0.5",
                                "[]",
                                "{}",
                                "1e308",
                                "-0",
                                "true",
                                "\"\"",
                                "0",
                                "1000000000",
                                "[[[[[[[[[[]]]]]]]]]]",
                                "4294967295",
                                "\"1\""};

}  // namespace

TEST_CASE("truncating a small trace at every byte offset never crashes", "[fuzz]") {
  const std::string text = test::read_text(test::data_path("interleaved8.json"));
  REQUIRE(text.size() > 100);
  accepted = refused = 0;
  for (std::size_t cut = 0; cut < text.size(); ++cut) check_outcome(text.substr(0, cut));
  check_outcome(text);
  // only the whole file (or its trailing newline gone) loads
  REQUIRE(refused >= static_cast<int>(text.size()) - 2);
}

TEST_CASE("replacing each number with hostile values never crashes", "[fuzz]") {
  // The hand-written traces, and a synthetic one whose operands are events (register values).
  for (const std::string& text : {test::read_text(test::data_path("interleaved8.json")),
                                  test::read_text(test::data_path("seq8_two_launches.json")),
                                  test::synthetic_trace(test::Pattern::warp_shuffle, 8, 8)}) {
    const auto spans = number_spans(text);
    REQUIRE(spans.size() > 50);
    for (const auto& [b, e] : spans) {
      for (const char* h : kHostile) check_outcome(text.substr(0, b) + h + text.substr(e));
    }
  }
}

TEST_CASE("flipping random bytes never crashes", "[fuzz]") {
  std::mt19937 rng(20240601);
  for (const char* file : {"interleaved8.json", "seq8_two_launches.json"}) {
    const std::string text = test::read_text(test::data_path(file));
    std::uniform_int_distribution<std::size_t> pos(0, text.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> count(1, 8);
    for (int iter = 0; iter < 4000; ++iter) {
      std::string m = text;
      const int k = count(rng);
      for (int j = 0; j < k; ++j) {
        const std::size_t p = pos(rng);
        switch (byte(rng) % 4) {
          case 0:
            m[p] = static_cast<char>(byte(rng));
            break;  // any byte
          // structure
          case 1:
            m[p] = "[]{}\",:0-9e."[static_cast<std::size_t>(byte(rng)) % 13];
            break;
          case 2:
            m.erase(p, std::min<std::size_t>(m.size() - p, static_cast<std::size_t>(count(rng))));
            break;
          default:
            m.insert(p, m.substr(pos(rng) % m.size(), static_cast<std::size_t>(count(rng)) * 4));
            break;
        }
        if (m.empty()) break;
        pos = std::uniform_int_distribution<std::size_t>(0, m.size() - 1);
      }
      pos = std::uniform_int_distribution<std::size_t>(0, text.size() - 1);
      check_outcome(m);
    }
  }
}

TEST_CASE("deleting any field or replacing any value with another type never crashes", "[fuzz]") {
  const json doc = json::parse(test::read_text(test::data_path("seq8_two_launches.json")));
  const json replacements[] = {nullptr, "x",           -1,
                               1e300,   json::array(), json::object(),
                               true,    0.25,          std::numeric_limits<std::int64_t>::min()};
  for (const auto& [key, value] : doc.items()) {
    json d = doc;
    d.erase(key);
    check_outcome(d.dump());
    for (const auto& r : replacements) {
      json e = doc;
      e[key] = r;
      check_outcome(e.dump());
    }
  }
  for (std::size_t l = 0; l < doc["launches"].size(); ++l) {
    for (const auto& [key, value] : doc["launches"][l].items()) {
      json d = doc;
      d["launches"][l].erase(key);
      check_outcome(d.dump());
      for (const auto& r : replacements) {
        json e = doc;
        e["launches"][l][key] = r;
        check_outcome(e.dump());
      }
    }
  }
  for (std::size_t ev = 0; ev < doc["events"].size(); ++ev) {
    for (std::size_t f = 0; f < 14; ++f) {
      json d = doc;
      d["events"][ev].erase(f);
      check_outcome(d.dump());
      for (const auto& r : replacements) {
        json e = doc;
        e["events"][ev][f] = r;
        check_outcome(e.dump());
      }
    }
  }
}

TEST_CASE("deep nesting and absurd claims are refused", "[fuzz]") {
  const std::string text = test::read_text(test::data_path("interleaved8.json"));
  for (int depth : {10, 31, 33, 1000, 1000000}) {
    check_outcome(std::string(static_cast<std::size_t>(depth), '[') +
                  std::string(static_cast<std::size_t>(depth), ']'));
    check_outcome(std::string(static_cast<std::size_t>(depth), '{'));
    // A deep value inside an otherwise valid trace.
    const std::size_t at = text.find("\"variant\": \"\"");
    check_outcome(text.substr(0, at) +
                  "\"variant\": " + std::string(static_cast<std::size_t>(depth), '[') +
                  std::string(static_cast<std::size_t>(depth), ']') + text.substr(at + 13));
  }
  json doc = json::parse(text);
  doc["capacity"] = 1000000000000000LL;
  check_outcome(doc.dump());
  doc["n"] = 1000000000;
  check_outcome(doc.dump());
}

TEST_CASE("the regression corpus: inputs that once found bugs", "[fuzz]") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(RL_TRACE_TEST_CORPUS)) {
    if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
    INFO(entry.path().string());
    check_outcome(test::read_text(entry.path().string()));
    ++files;
  }
  REQUIRE(files > 0);
}

TEST_CASE("operands that point forward, at barriers, out of range or at other blocks never crash",
          "[fuzz]") {
  const json doc = json::parse(test::read_text(test::data_path("seq8_two_launches.json")));
  const auto count = static_cast<std::int64_t>(doc["events"].size());
  const json spaces[] = {"",       "const",    "event",   "shared", "input", "scratch",
                         "output", "register", "nowhere", nullptr,  3};
  accepted = refused = 0;
  for (std::size_t ev = 0; ev < doc["events"].size(); ++ev) {
    for (std::size_t side : {6u, 9u}) {
      for (const auto& space : spaces) {
        for (std::int64_t index :
             {std::int64_t{-2}, std::int64_t{-1}, std::int64_t{0}, std::int64_t{3}, std::int64_t{8},
              static_cast<std::int64_t>(ev) - 1, static_cast<std::int64_t>(ev),
              static_cast<std::int64_t>(ev) + 1, count, count + 5, std::int64_t{1} << 41}) {
          json d = doc;
          d["events"][ev][side] = space;
          d["events"][ev][side + 1] = index;
          check_outcome(d.dump());
        }
      }
    }
  }
  REQUIRE(accepted > 0);  // some of these are valid traces (a load of a constant, say)
  REQUIRE(refused > accepted);
}

TEST_CASE("random mutations of valid v2 traces never crash", "[fuzz]") {
  std::mt19937 rng(20250214);
  const std::vector<json> docs = {
      json::parse(test::read_text(test::data_path("seq8_two_launches.json"))),
      json::parse(test::read_text(test::data_path("interleaved8.json"))),
      json::parse(test::synthetic_trace(test::Pattern::warp_shuffle, 40, 64)),
      json::parse(test::synthetic_trace(test::Pattern::interleaved_strided, 64, 32))};
  const char* kinds[] = {"load",   "store",   "combine",      "shuffle",
                         "atomic", "barrier", "warp_barrier", "step"};
  const char* spaces[] = {"", "const", "event", "shared", "register", "input", "scratch", "output"};
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  accepted = refused = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    json d = docs[static_cast<std::size_t>(pick(static_cast<int>(docs.size())))];
    json& events = d["events"];
    const int n = static_cast<int>(events.size());
    const int edits = 1 + pick(3);
    for (int k = 0; k < edits; ++k) {
      json& e = events[static_cast<std::size_t>(pick(n))];
      switch (pick(9)) {
        case 0:
          e[1] = kinds[pick(8)];
          break;
        case 1:
          e[3] = pick(3) == 0 ? -1 : pick(70);
          break;
        case 2:
          e[static_cast<std::size_t>(6 + 3 * pick(2))] = spaces[pick(8)];
          break;
        case 3:
          e[static_cast<std::size_t>(7 + 3 * pick(2))] = pick(n + 4) - 2;
          break;
        // a_value, b_value or value
        case 4:
          e[static_cast<std::size_t>(8 + 3 * pick(3))] = nullptr;
          break;
        case 5:
          e[4] = spaces[pick(8)];
          e[5] = pick(3) == 0 ? 0xffffffffLL : pick(70) - 1;
          break;
        case 6:
          e.erase(static_cast<std::size_t>(pick(static_cast<int>(e.size()))));
          break;
        case 7:
          e.push_back(pick(2) ? json(0) : json(nullptr));
          break;
        default:
          std::swap(events[static_cast<std::size_t>(pick(n))],
                    events[static_cast<std::size_t>(pick(n))]);
          break;
      }
    }
    if (pick(10) == 0) d["barriers"] = !d["barriers"].get<bool>();
    check_outcome(d.dump());
  }
  REQUIRE(accepted > 0);
  REQUIRE(refused > 0);
}

TEST_CASE("null values, wrong field counts and version 1 files are refused or loaded, never crash",
          "[fuzz]") {
  const json doc = json::parse(test::read_text(test::data_path("interleaved8.json")));
  // Every value of every event null: a valid trace (NaN values, unexplained reads).
  json nulls = doc;
  for (auto& e : nulls["events"]) {
    for (std::size_t f : {8u, 11u, 12u}) e[f] = nullptr;
  }
  accepted = refused = 0;
  check_outcome(nulls.dump());
  REQUIRE(accepted == 1);
  const Trace t = parse_trace(nulls.dump(), "fuzz.json");
  REQUIRE(!t.dag.unexplained.empty());
  // Null where a number must be.
  for (std::size_t f = 0; f < 14; ++f) {
    if (f == 8 || f == 11 || f == 12) continue;
    json d = doc;
    d["events"][9][f] = nullptr;
    check_outcome(d.dump());
  }
  // Every field count but 14.
  for (std::size_t size = 0; size <= 20; ++size) {
    json d = doc;
    json e = json::array();
    for (std::size_t f = 0; f < size; ++f) e.push_back(f < 14 ? doc["events"][9][f] : json(0));
    d["events"][9] = e;
    check_outcome(d.dump());
  }
  // Version 1 files: as they are, claiming version 2, and a version 2 file claiming version 1.
  const std::string v1 = test::read_text(test::data_path("v1_seq8_two_launches.json"));
  REQUIRE(!v1.empty());
  refused = 0;
  check_outcome(v1);
  json v1_as_2 = json::parse(v1);
  v1_as_2["version"] = 2;
  check_outcome(v1_as_2.dump());
  v1_as_2["seed"] = 1;
  v1_as_2["distribution"] = "";
  v1_as_2["barriers"] = true;
  check_outcome(v1_as_2.dump());
  json v2_as_1 = doc;
  v2_as_1["version"] = 1;
  check_outcome(v2_as_1.dump());
  REQUIRE(refused == 4);
}

// DAG reconstruction and level derivation on hand-written traces (tests/trace/data, and small ones
// written inline) and on synthetic ones.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;

namespace {

std::set<int> leaves_under(const Dag& dag, int node) {
  std::set<int> out;
  std::vector<int> stack{node};
  std::set<int> seen;
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    const DagNode& n = dag.nodes[static_cast<std::size_t>(id)];
    if (n.is_leaf()) out.insert(id);
    for (int p : n.parents()) stack.push_back(p);
  }
  return out;
}

void check_well_formed(const Trace& t) {
  REQUIRE(t.dag.event_nodes.size() == t.events.size());
  REQUIRE(t.dag.event_levels.size() == t.events.size());
  for (const auto& n : t.dag.nodes) {
    REQUIRE(n.id == static_cast<int>(&n - t.dag.nodes.data()));
    for (int p : n.parents()) {
      REQUIRE(p >= 0);
      REQUIRE(p < n.id);  // parents come first: the node list is a topological order
      REQUIRE(t.dag.nodes[static_cast<std::size_t>(p)].level <= n.level);
    }
    if (!n.is_leaf()) REQUIRE(t.dag.event_nodes[static_cast<std::size_t>(n.event)] == n.id);
  }
}

// The node made by event i.
const DagNode& node_of(const Trace& t, int i) {
  const int id = t.dag.event_nodes[static_cast<std::size_t>(i)];
  REQUIRE(id >= 0);
  return t.dag.nodes[static_cast<std::size_t>(id)];
}

// A one-block, one-launch trace around the given events (inputs 1..8, blocks of 32).
Trace inline_trace(const json& events, bool barriers = true) {
  json doc = json::parse(test::read_text(test::data_path("interleaved8.json")));
  doc["launches"][0]["block"] = 32;
  doc["barriers"] = barriers;
  doc["events"] = events;
  return parse_trace(doc.dump(), "inline.json");
}

}  // namespace

TEST_CASE("8-element sequential tree over two launches rebuilds into one DAG", "[model]") {
  const Trace t = load_trace(test::data_path("seq8_two_launches.json"));
  REQUIRE(t.n == 8);
  REQUIRE(t.launches.size() == 2);
  REQUIRE(t.launches[1].n == 2);
  REQUIRE(t.events.size() == 28);
  REQUIRE(t.seed == 1);
  REQUIRE(t.barriers);
  const Dag& dag = t.dag;
  check_well_formed(t);
  REQUIRE(dag.leaf_count == 8);
  // 8 leaves; launch 0: 8 loads + 4 + 2 combines + 2 stores; launch 1: 2 loads + 1 combine + 1
  // store.
  REQUIRE(dag.nodes.size() == 8 + 16 + 4);
  for (int i = 0; i < 8; ++i) {
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].is_leaf());
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].value == i + 1);
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].loc.index == i);
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].level == 0);
  }
  REQUIRE(dag.final_node >= 0);
  const DagNode& fin = dag.nodes[static_cast<std::size_t>(dag.final_node)];
  REQUIRE(fin.value == 36);
  REQUIRE(fin.launch == 1);
  REQUIRE(t.location_name(fin.loc) == "output[0]");
  REQUIRE(fin.parents().size() == 1);
  REQUIRE(leaves_under(dag, dag.final_node).size() == 8);
  REQUIRE(dag.unexplained.empty());

  // Block 1's first combine at shared[0] reads block 1's shared[2] (input 7), not block 0's.
  const DagNode& b1 = node_of(t, 12);
  REQUIRE(b1.block == 1);
  REQUIRE(b1.value == 12);
  REQUIRE(b1.parents().size() == 2);
  std::set<double> pv;
  for (int p : b1.parents()) pv.insert(dag.nodes[static_cast<std::size_t>(p)].value);
  REQUIRE(pv == std::set<double>{5, 7});
  // The second launch's loads read what the first launch stored into scratch.
  for (int i : {22, 23}) {
    const DagNode& n = node_of(t, i);
    REQUIRE(n.launch == 1);
    REQUIRE(n.parents().size() == 1);
    const DagNode& p = dag.nodes[static_cast<std::size_t>(n.parents()[0])];
    REQUIRE(p.launch == 0);
    REQUIRE(t.location_name(p.loc).rfind("scratch", 0) == 0);
    REQUIRE(p.value == n.value);
  }
}

TEST_CASE("levels of the 8-element sequential tree: combines 1, 2, 3 and the final store at 3",
          "[model][level]") {
  const Trace t = load_trace(test::data_path("seq8_two_launches.json"));
  std::vector<int> combine_levels;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (t.events[i].kind == EventKind::combine) combine_levels.push_back(t.level_of(i));
  }
  REQUIRE(combine_levels == std::vector<int>{1, 1, 1, 1, 2, 2, 3});
  REQUIRE(t.dag.nodes[static_cast<std::size_t>(t.dag.final_node)].level == 3);
  REQUIRE(t.dag.max_level == 3);
  // Moves keep their version's level: loads from the input at 0, stores and the second launch's
  // loads from scratch at the level they carry (levels are global across launches).
  for (int i : {0, 7}) REQUIRE(t.level_of(static_cast<std::size_t>(i)) == 0);
  for (int i : {20, 21, 22, 23}) REQUIRE(t.level_of(static_cast<std::size_t>(i)) == 2);
  // A barrier takes the level its block reached before it.
  REQUIRE(t.level_of(8) == 0);
  REQUIRE(t.level_of(14) == 1);
  REQUIRE(t.level_of(18) == 2);
  REQUIRE(t.level_of(24) == 2);
  REQUIRE(t.level_of(26) == 3);
}

TEST_CASE("interleaved 8-element tree: every combine has its two operands as parents", "[model]") {
  const Trace t = load_trace(test::data_path("interleaved8.json"));
  check_well_formed(t);
  const Dag& dag = t.dag;
  REQUIRE(dag.nodes.size() == 8 + 8 + 4 + 2 + 1 + 1);
  for (const auto& n : dag.nodes) {
    if (n.event < 0) continue;
    const Event& e = t.events[static_cast<std::size_t>(n.event)];
    REQUIRE(!is_barrier(e.kind));
    REQUIRE(n.level == t.level_of(static_cast<std::size_t>(n.event)));
    REQUIRE(n.thread == e.thread);
    REQUIRE(n.loc == e.dst);
    if (e.kind == EventKind::combine) {
      REQUIRE(n.parents().size() == 2);
      double sum = 0;
      for (int p : n.parents()) sum += dag.nodes[static_cast<std::size_t>(p)].value;
      REQUIRE(sum == n.value);
    }
  }
  // The level-1 combines were recorded out of thread order: the level-2 combine at shared[0] reads
  // shared[2]'s level-1 version (7, recorded last), not the loaded 3.
  const DagNode& n = node_of(t, 14);
  REQUIRE(n.level == 2);
  std::set<double> pv;
  for (int p : n.parents()) pv.insert(dag.nodes[static_cast<std::size_t>(p)].value);
  REQUIRE(pv == std::set<double>{3, 7});
  const DagNode& fin = dag.nodes[static_cast<std::size_t>(dag.final_node)];
  REQUIRE(fin.value == 36);
  REQUIRE(fin.level == 3);
  REQUIRE(leaves_under(dag, dag.final_node).size() == 8);
}

TEST_CASE("a grid-stride register sum from a const 0 keeps level 0 for its first add",
          "[model][level]") {
  const Trace t = inline_trace(json::array({
      {0, "combine", 0, 0, "register", 0, "const", -1, 0, "input", 0, 1, 1, 10},  // sum = 0 + in[0]
      {0, "combine", 0, 0, "register", 0, "event", 0, 1, "input", 4, 5, 6, 10},   // sum += in[4]
      {0, "combine", 0, 0, "register", 0, "event", 1, 6, "input", 6, 7, 13, 10},  // sum += in[6]
      {0, "store", 0, 0, "output", 0, "event", 2, 13, "", -1, 0, 13, 12},
  }));
  check_well_formed(t);
  REQUIRE(t.level_of(0) == 0);
  REQUIRE(t.level_of(1) == 1);
  REQUIRE(t.level_of(2) == 2);
  REQUIRE(t.level_of(3) == 2);
  REQUIRE(node_of(t, 0).parents().size() == 1);  // the constant is no version
  REQUIRE(node_of(t, 0).operand_nodes[0] == -1);
  REQUIRE(node_of(t, 0).operand_nodes[1] == 0);  // leaf 0
  REQUIRE(t.dag.final_node == t.dag.event_nodes[3]);
  REQUIRE(leaves_under(t.dag, t.dag.final_node) == std::set<int>{0, 4, 6});
  REQUIRE(t.dag.unexplained.empty());
}

TEST_CASE("an event operand names that event's version even after its register was written again",
          "[model]") {
  // Butterfly: lanes 0 and 1 exchange; lane 1's shuffle reads lane 0's value from before lane 0's
  // own shuffle (recorded first) replaced it.
  const Trace t = inline_trace(json::array({
      {0, "combine", 0, 0, "register", 0, "const", -1, 0, "input", 0, 1, 1, 10},
      {0, "combine", 0, 1, "register", 1, "const", -1, 0, "input", 1, 2, 2, 10},
      {0, "shuffle", 0, 0, "register", 0, "event", 0, 1, "event", 1, 2, 3, 12},
      {0, "shuffle", 0, 1, "register", 1, "event", 1, 2, "event", 0, 1, 3, 12},
  }));
  check_well_formed(t);
  const DagNode& b = node_of(t, 3);
  REQUIRE(b.parents().size() == 2);
  REQUIRE(b.operand_nodes[0] == t.dag.event_nodes[1]);
  REQUIRE(b.operand_nodes[1] == t.dag.event_nodes[0]);  // not event 2's newer r0
  REQUIRE(b.level == 1);
  REQUIRE(t.dag.unexplained.empty());
}

TEST_CASE("a memory operand names the location's last version before the event", "[model]") {
  const Trace t = inline_trace(json::array({
      {0, "load", 0, 0, "shared", 0, "input", 0, 1, "", -1, 0, 1, 10},
      {0, "load", 0, 1, "shared", 1, "input", 1, 2, "", -1, 0, 2, 10},
      // shared[1] again
      {0, "store", 0, 1, "shared", 1, "input", 2, 3, "", -1, 0, 3, 11},
      // reads the 3
      {0, "combine", 0, 0, "shared", 0, "shared", 0, 1, "shared", 1, 3, 4, 12},
      // too late to be read
      {0, "load", 0, 1, "shared", 1, "input", 3, 4, "", -1, 0, 4, 13},
  }));
  check_well_formed(t);
  const DagNode& c = node_of(t, 3);
  REQUIRE(c.operand_nodes[0] == t.dag.event_nodes[0]);
  REQUIRE(c.operand_nodes[1] == t.dag.event_nodes[2]);
  REQUIRE(c.level == 1);
}

TEST_CASE("reads the trace does not explain are marked, but NaN reads of NaN versions are not",
          "[model][unexplained]") {
  const double nan = std::nan("");
  const Trace t = inline_trace(json::array({
      {0, "load", 0, 0, "shared", 0, "input", 0, 1, "", -1, 0, 1, 10},
      // Thread 1 read shared[0] as 5 although its version holds 1 (a racing write, say).
      {0, "combine", 0, 1, "shared", 1, "shared", 0, 5, "input", 1, 2, 7, 11},
      // Thread 2 read shared[3], which nothing wrote: the simulator's NaN fill, written as null.
      {0, "store", 0, 2, "shared", 2, "shared", 3, nullptr, "", -1, 0, nullptr, 12},
      // Reading that NaN back is explained: it is what the slot holds.
      {0, "combine", 0, 2, "shared", 4, "shared", 2, nullptr, "const", -1, 0, nullptr, 13},
      // An input element read with the wrong value.
      {0, "store", 0, 3, "shared", 5, "input", 7, 9, "", -1, 0, 9, 14},
  }));
  check_well_formed(t);
  const auto& u = t.dag.unexplained;
  REQUIRE(u.size() == 3);
  REQUIRE(u[0].event == 1);
  REQUIRE(u[0].operand == 0);
  REQUIRE(u[0].version == t.dag.event_nodes[0]);
  REQUIRE(u[0].read == 5);
  REQUIRE(u[0].expected == 1);
  REQUIRE(u[1].event == 2);
  REQUIRE(u[1].version == -1);
  REQUIRE(std::isnan(u[1].read));
  REQUIRE(std::isnan(u[1].expected));
  REQUIRE(u[2].event == 4);
  REQUIRE(u[2].version == 7);  // leaf 7
  REQUIRE(node_of(t, 1).unexplained == 1);
  REQUIRE(node_of(t, 2).unexplained == 1);
  REQUIRE(node_of(t, 3).unexplained == 0);
  REQUIRE(std::isnan(node_of(t, 3).value));
  REQUIRE(node_of(t, 2).level == 0);  // no version: level 0
  REQUIRE(same_value(nan, nan));
  REQUIRE(!same_value(nan, 0.0));
  REQUIRE(same_value(0.5, 0.5));
}

TEST_CASE("synthetic traces rebuild into DAGs whose final node covers every leaf", "[model]") {
  using test::Pattern;
  for (Pattern p : {Pattern::sequential, Pattern::interleaved_divergent,
                    Pattern::interleaved_strided, Pattern::warp_shuffle}) {
    for (auto [n, block] :
         {std::pair{1024, 256}, std::pair{1000, 64}, std::pair{32, 32}, std::pair{5000, 4}}) {
      INFO(test::slug_of(p) << " n=" << n << " block=" << block);
      const Trace t = parse_trace(test::synthetic_trace(p, n, block), "synthetic.json");
      check_well_formed(t);
      REQUIRE(t.dag.unexplained.empty());
      REQUIRE(t.dag.nodes[static_cast<std::size_t>(t.dag.final_node)].value == n * (n + 1.0) / 2);
      REQUIRE(t.result == n * (n + 1.0) / 2);
      REQUIRE(leaves_under(t.dag, t.dag.final_node).size() == static_cast<std::size_t>(n));
    }
  }
  // A full tree of 1024 leaves in 256-thread blocks: 8 levels in the first launch, 2 more in the
  // second.
  const Trace s = parse_trace(test::synthetic_trace(Pattern::sequential, 1024, 256), "s.json");
  REQUIRE(s.dag.nodes[static_cast<std::size_t>(s.dag.final_node)].level == 10);
}

TEST_CASE("recorded lesson traces in assets/ (once re-recorded as version 2) rebuild",
          "[model][assets]") {
  // Until the kernels emit version 2, assets/traces holds version 1 files, which the loader refuses
  // with its one line; this checks whichever files are version 2 already.
  for (const char* name : {"03_sequential_addressing.sim.json", "08_warp_shuffle.sim.json",
                           "10_multi_block_two_kernel.sim.json", "12_single_pass.sim.json"}) {
    const std::string path = std::string(RL_REPO_ROOT) + "/assets/traces/" + name;
    const std::string text = test::read_text(path);
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object() || doc.value("version", 0) != 2) continue;
    const Trace t = load_trace(path);
    INFO(name);
    check_well_formed(t);
    REQUIRE(t.dag.final_node >= 0);
    REQUIRE(t.dag.nodes[static_cast<std::size_t>(t.dag.final_node)].value == Approx(t.result));
    REQUIRE(leaves_under(t.dag, t.dag.final_node).size() == static_cast<std::size_t>(t.n));
  }
}

TEST_CASE("a trace's block label names the sizes its kernels launched where they differ",
          "[model]") {
  Trace t;
  t.block = 256;
  CHECK(t.block_label() == "block 256");  // no launch recorded: the block asked for
  t.launches = {{"k", 4, 256, -1}};
  CHECK(t.block_label() == "block 256");
  t.launches = {{"non_power_of_two", 4, 192, -1}};  // three quarters of the block asked for
  CHECK(t.block_label() == "block 256 (launched 192)");
  t.launches = {{"partials", 4, 256, -1}, {"finish", 1, 1024, -1}, {"again", 1, 1024, -1}};
  CHECK(t.block_label() == "block 256 (launched 256, 1024)");
}

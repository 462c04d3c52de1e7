// DAG reconstruction on hand-written traces (tests/trace/data) and on synthetic ones.
#include <catch2/catch.hpp>
#include <set>

#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;

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
  for (const auto& n : t.dag.nodes) {
    REQUIRE(n.id == static_cast<int>(&n - t.dag.nodes.data()));
    for (int p : n.parents()) {
      REQUIRE(p >= 0);
      REQUIRE(p < n.id);  // parents come first: the node list is a topological order
    }
  }
}

}  // namespace

TEST_CASE("8-element sequential tree over two launches rebuilds into one DAG", "[model]") {
  const Trace t = load_trace(test::data_path("seq8_two_launches.json"));
  REQUIRE(t.n == 8);
  REQUIRE(t.launches.size() == 2);
  REQUIRE(t.launches[1].n == 2);
  REQUIRE(t.events.size() == 25);
  const Dag& dag = t.dag;
  check_well_formed(t);
  REQUIRE(dag.leaf_count == 8);
  // 8 leaves, launch 0: 8 loads + 4 + 2 combines + 2 stores, launch 1: 2 loads + 1 combine + 1 store.
  REQUIRE(dag.nodes.size() == 8 + 16 + 4);
  for (int i = 0; i < 8; ++i) {
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].is_leaf());
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].value == i + 1);
    REQUIRE(dag.nodes[static_cast<std::size_t>(i)].loc.index == i);
  }
  REQUIRE(dag.final_node >= 0);
  const DagNode& fin = dag.nodes[static_cast<std::size_t>(dag.final_node)];
  REQUIRE(fin.value == 36);
  REQUIRE(fin.launch == 1);
  REQUIRE(t.location_name(fin.loc) == "output[0]");
  REQUIRE(fin.parents().size() == 1);
  REQUIRE(leaves_under(dag, dag.final_node).size() == 8);

  // Block 1's step-1 combine at shared[0] reads block 1's shared[2] (input 7), not block 0's.
  int found = 0;
  for (const auto& n : dag.nodes) {
    if (n.launch == 0 && n.step == 1 && n.block == 1 && n.thread == 0) {
      ++found;
      REQUIRE(n.value == 12);
      REQUIRE(n.parents().size() == 2);
      std::set<double> pv;
      for (int p : n.parents()) pv.insert(dag.nodes[static_cast<std::size_t>(p)].value);
      REQUIRE(pv == std::set<double>{5, 7});
    }
    // The second launch's loads read what the first launch stored into scratch.
    if (n.launch == 1 && n.step == 0) {
      REQUIRE(n.parents().size() == 1);
      const DagNode& p = dag.nodes[static_cast<std::size_t>(n.parents()[0])];
      REQUIRE(p.launch == 0);
      REQUIRE(t.location_name(p.loc).rfind("scratch", 0) == 0);
      REQUIRE(p.value == n.value);
    }
  }
  REQUIRE(found == 1);
}

TEST_CASE("interleaved 8-element tree: every combine has its two operands as parents", "[model]") {
  const Trace t = load_trace(test::data_path("interleaved8.json"));
  check_well_formed(t);
  const Dag& dag = t.dag;
  REQUIRE(dag.nodes.size() == 8 + 8 + 4 + 2 + 1 + 1);
  for (const auto& n : dag.nodes) {
    if (n.event < 0) continue;
    const Event& e = t.events[static_cast<std::size_t>(n.event)];
    REQUIRE(e.kind != EventKind::barrier);
    REQUIRE(n.step == e.step);
    REQUIRE(n.thread == e.thread);
    REQUIRE(n.loc == e.dst);
    if (e.kind == EventKind::combine) {
      REQUIRE(n.parents().size() == 2);
      double sum = 0;
      for (int p : n.parents()) sum += dag.nodes[static_cast<std::size_t>(p)].value;
      REQUIRE(sum == n.value);
    }
  }
  // Events were recorded out of order within step 1: the step-2 combine at shared[0] must still
  // read shared[2]'s step-1 version (7), not the loaded 3.
  for (const auto& n : dag.nodes) {
    if (n.step == 2 && n.thread == 0) {
      std::set<double> pv;
      for (int p : n.parents()) pv.insert(dag.nodes[static_cast<std::size_t>(p)].value);
      REQUIRE(pv == std::set<double>{3, 7});
    }
  }
  const DagNode& fin = dag.nodes[static_cast<std::size_t>(dag.final_node)];
  REQUIRE(fin.value == 36);
  REQUIRE(leaves_under(dag, dag.final_node).size() == 8);
}

TEST_CASE("a read by another thread in the same step sees the value from before the step", "[model]") {
  // Butterfly exchange: lanes 0 and 1 swap-add in one step; both must read the other's old value.
  std::string text = test::read_text(test::data_path("interleaved8.json"));
  auto doc = nlohmann::json::parse(text);
  doc["events"] = nlohmann::json::array({
      {0, 0, "load", 0, 0, "register", 0, "input", 0, 1, 1},
      {0, 0, "load", 0, 1, "register", 1, "input", 1, 2, 1},
      {0, 1, "shuffle", 0, 0, "register", 0, "register", 1, 3, 2},
      {0, 1, "shuffle", 0, 1, "register", 1, "register", 0, 3, 2},
  });
  const Trace t = parse_trace(doc.dump(), "butterfly.json");
  REQUIRE(t.dag.nodes.size() == 8 + 4);
  const DagNode& b = t.dag.nodes[11];
  REQUIRE(b.parents().size() == 2);
  REQUIRE(t.dag.nodes[static_cast<std::size_t>(b.parents()[0])].value == 2);  // its own old r1
  REQUIRE(t.dag.nodes[static_cast<std::size_t>(b.parents()[1])].value == 1);  // r0 before the step
}

TEST_CASE("synthetic and recorded traces rebuild into DAGs whose final node covers every leaf", "[model]") {
  using test::Pattern;
  for (Pattern p : {Pattern::sequential, Pattern::interleaved_divergent, Pattern::interleaved_strided}) {
    const Trace t = parse_trace(test::synthetic_trace(p, 1024, 256), "synthetic.json");
    check_well_formed(t);
    REQUIRE(t.dag.nodes[static_cast<std::size_t>(t.dag.final_node)].value == 1024.0 * 1025 / 2);
    REQUIRE(leaves_under(t.dag, t.dag.final_node).size() == 1024);
  }
  const Trace s = parse_trace(test::synthetic_trace(Pattern::warp_shuffle, 32, 32), "shuffle.json");
  REQUIRE(s.dag.nodes[static_cast<std::size_t>(s.dag.final_node)].value == 32.0 * 33 / 2);
  REQUIRE(leaves_under(s.dag, s.dag.final_node).size() == 32);

  // Every lesson trace in assets/ (when present): the final node holds the recorded result.
  for (const char* name : {"03_sequential_addressing.sim.json", "08_warp_shuffle.sim.json",
                           "10_multi_block_two_kernel.sim.json", "11_single_pass.sim.json"}) {
    const std::string path = std::string(RL_REPO_ROOT) + "/assets/traces/" + name;
    if (!std::ifstream(path)) continue;
    const Trace t = load_trace(path);
    INFO(name);
    check_well_formed(t);
    REQUIRE(t.dag.final_node >= 0);
    REQUIRE(t.dag.nodes[static_cast<std::size_t>(t.dag.final_node)].value == Approx(t.result));
    REQUIRE(leaves_under(t.dag, t.dag.final_node).size() == static_cast<std::size_t>(t.n));
  }
}

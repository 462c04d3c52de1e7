#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "../trace/synthetic_trace.h"
#include "common/trace/trace_loader.h"
#include "viewer/tree_layout.h"

using namespace rl;
using namespace rl::viewer;

namespace {

void check_layout(const Trace& t) {
  const TreeLayout lay = layout_tree(t);
  REQUIRE(lay.nodes.size() == t.dag.nodes.size());
  std::map<float, std::vector<float>> rows;
  for (const auto& n : lay.nodes) {
    REQUIRE(std::isfinite(n.x));
    REQUIRE(std::isfinite(n.y));
    REQUIRE(n.x >= 0);
    REQUIRE(n.x < lay.width);
    REQUIRE(n.y >= 0);
    REQUIRE(n.y < static_cast<float>(lay.rows));
    rows[n.y].push_back(n.x);
    const DagNode& d = t.dag.nodes[static_cast<std::size_t>(n.node)];
    for (int p : d.parents()) REQUIRE(lay.nodes[static_cast<std::size_t>(p)].y < n.y);  // above its parents
    if (d.is_leaf()) {
      REQUIRE(n.y == 0);
      REQUIRE(n.frame == -1);
    } else {
      REQUIRE(n.frame >= 0);
      REQUIRE(n.frame < static_cast<int>(lay.frames.size()));
    }
  }
  // Leaves in input order.
  for (int i = 1; i < t.dag.leaf_count; ++i) {
    REQUIRE(lay.nodes[static_cast<std::size_t>(i - 1)].x < lay.nodes[static_cast<std::size_t>(i)].x);
  }
  // No overlap within a row.
  for (auto& [y, xs] : rows) {
    std::sort(xs.begin(), xs.end());
    for (std::size_t i = 1; i < xs.size(); ++i) REQUIRE(xs[i] - xs[i - 1] >= 1.f - 1e-4f);
  }
  // Frames in (launch, level) order; a later launch is above an earlier one.
  for (std::size_t i = 1; i < lay.frames.size(); ++i) {
    REQUIRE(std::pair{lay.frames[i - 1].launch, lay.frames[i - 1].level} < std::pair{lay.frames[i].launch, lay.frames[i].level});
    REQUIRE(lay.frames[i].first_row >= lay.frames[i - 1].first_row + lay.frames[i - 1].rows);
  }
  // A node's frame is its launch and level.
  for (const auto& n : lay.nodes) {
    const DagNode& d = t.dag.nodes[static_cast<std::size_t>(n.node)];
    if (d.is_leaf()) continue;
    const Frame& f = lay.frames[static_cast<std::size_t>(n.frame)];
    REQUIRE(f.launch == d.launch);
    REQUIRE(f.level == d.level);
  }
  for (const auto& e : lay.edges) REQUIRE(lay.nodes[static_cast<std::size_t>(e.from)].y < lay.nodes[static_cast<std::size_t>(e.to)].y);
}

}  // namespace

TEST_CASE("layout of the hand-written traces", "[layout]") {
  const Trace t = load_trace(std::string(RL_REPO_ROOT) + "/tests/trace/data/seq8_two_launches.json");
  check_layout(t);
  const TreeLayout lay = layout_tree(t);
  // Launch 0 at levels 0, 1, 2; launch 1 at 2 (its loads of scratch) and 3.
  REQUIRE(lay.frames.size() == 5);
  REQUIRE(lay.frames[3].launch == 1);
  REQUIRE(lay.frames[3].level == 2);
  // Block 1's subtree sits right of block 0's: its level-1 combine at shared[0] is over leaf 4.
  int found = 0;
  for (const auto& n : t.dag.nodes) {
    if (n.launch == 0 && n.level == 1 && n.block == 1 && n.thread == 0) {
      REQUIRE(lay.nodes[static_cast<std::size_t>(n.id)].x == 4);
      ++found;
    }
  }
  REQUIRE(found == 1);
  // The final node is on the top row.
  REQUIRE(lay.nodes[static_cast<std::size_t>(t.dag.final_node)].y == static_cast<float>(lay.rows - 1));
  check_layout(load_trace(std::string(RL_REPO_ROOT) + "/tests/trace/data/interleaved8.json"));
}

TEST_CASE("layout of synthetic and recorded traces", "[layout]") {
  using test::Pattern;
  for (Pattern p : {Pattern::sequential, Pattern::interleaved_divergent, Pattern::interleaved_strided}) {
    check_layout(parse_trace(test::synthetic_trace(p, 1024, 256), "s.json"));
  }
  check_layout(parse_trace(test::synthetic_trace(Pattern::warp_shuffle, 32, 32), "s.json"));
  check_layout(parse_trace(test::synthetic_trace(Pattern::warp_shuffle, 1000, 128), "s.json"));
  // The recorded lesson traces, those already re-recorded as version 2 (until the kernels emit
  // it, assets/traces holds version 1 files, which the loader refuses).
  const std::filesystem::path assets = std::filesystem::path(RL_REPO_ROOT) / "assets" / "traces";
  if (std::filesystem::is_directory(assets)) {
    for (const auto& e : std::filesystem::directory_iterator(assets)) {
      std::ifstream in(e.path());
      const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
      if (!doc.is_object() || doc.value("version", 0) != 2) continue;
      INFO(e.path().string());
      check_layout(load_trace(e.path().string()));
    }
  }
}

TEST_CASE("layout of any trace the loader accepts: parents below children, frames in order", "[layout]") {
  // Operands rewritten at random (events, memory, constants): whatever loads must lay out.
  std::ifstream in(std::string(RL_REPO_ROOT) + "/tests/trace/data/seq8_two_launches.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::mt19937 rng(7);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  const char* spaces[] = {"const", "event", "shared", "input", "scratch"};
  int loaded = 0;
  for (int iter = 0; iter < 400; ++iter) {
    nlohmann::json d = doc;
    for (int k = 0; k < 3; ++k) {
      auto& e = d["events"][static_cast<std::size_t>(pick(static_cast<int>(d["events"].size())))];
      if (e[1] == "barrier") continue;
      const std::size_t side = pick(2) == 0 || e[9] == "" ? 6 : 9;
      const char* space = spaces[pick(5)];
      e[side] = space;
      e[side + 1] = std::string(space) == "const" ? -1 : pick(8);
    }
    try {
      const Trace t = parse_trace(d.dump(), "m.json");
      check_layout(t);
      ++loaded;
    } catch (const TraceError&) {
    }
  }
  REQUIRE(loaded > 50);
}

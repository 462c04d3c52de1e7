// The source panel highlights, at each frame, the lines of that frame's own events (version 2
// records the line of the work itself: the addition, the shuffle, the store; a barrier its
// __syncthreads). Checked on the layout's frames, without pixels.
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "../trace/synthetic_trace.h"
#include "common/trace/trace_loader.h"
#include "viewer/tree_layout.h"

using namespace rl;
using namespace rl::viewer;

namespace {

std::string data(const char* name) { return std::string(RL_REPO_ROOT) + "/tests/trace/data/" + name; }

// For every frame: the highlighted lines are exactly the distinct lines of the events whose launch
// and level are the frame's, in event order, and every event is in exactly one frame.
void check_frames(const Trace& t) {
  const TreeLayout lay = layout_tree(t);
  std::vector<int> seen(t.events.size(), 0);
  for (int f = 0; f < static_cast<int>(lay.frames.size()); ++f) {
    const Frame& fr = lay.frames[static_cast<std::size_t>(f)];
    std::vector<int> expected;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
      const Event& e = t.events[i];
      if (e.launch != fr.launch || t.level_of(i) != fr.level) continue;
      ++seen[i];
      if (e.line > 0 && std::find(expected.begin(), expected.end(), e.line) == expected.end()) expected.push_back(e.line);
    }
    INFO("frame " << f << ": launch " << fr.launch << " level " << fr.level);
    REQUIRE(frame_lines(lay, f) == expected);
  }
  for (int s : seen) REQUIRE(s == 1);
}

}  // namespace

TEST_CASE("each frame highlights the lines of its own events", "[frames]") {
  const Trace t = load_trace(data("seq8_two_launches.json"));
  check_frames(t);
  const TreeLayout lay = layout_tree(t);
  // The loads (18) and their __syncthreads (19); the additions (28) and theirs (29); the last
  // addition's level also holds the store of its result (32).
  REQUIRE(lay.frames.size() == 5);
  REQUIRE(frame_lines(lay, 0) == std::vector<int>{18, 19});
  REQUIRE(frame_lines(lay, 1) == std::vector<int>{28, 29});
  REQUIRE(frame_lines(lay, 2) == std::vector<int>{28, 29, 32});
  REQUIRE(frame_lines(lay, 3) == std::vector<int>{18, 19});
  REQUIRE(frame_lines(lay, 4) == std::vector<int>{28, 29, 32});
  // Clamped like the playback's frame.
  REQUIRE(frame_lines(lay, -3) == frame_lines(lay, 0));
  REQUIRE(frame_lines(lay, 99) == frame_lines(lay, 4));

  check_frames(load_trace(data("interleaved8.json")));
}

TEST_CASE("shuffle frames highlight the shuffle, the register sums theirs", "[frames]") {
  using test::Pattern;
  const Trace t = parse_trace(test::synthetic_trace(Pattern::warp_shuffle, 32, 32), "s.json");
  check_frames(t);
  const TreeLayout lay = layout_tree(t);
  REQUIRE(lay.frames.size() == 6);  // level 0: the sums from 0; levels 1-5: the shuffles
  REQUIRE(frame_lines(lay, 0) == std::vector<int>{test::line::register_add});
  for (int f = 1; f < 5; ++f) REQUIRE(frame_lines(lay, f) == std::vector<int>{test::line::shuffle});
  REQUIRE(frame_lines(lay, 5) == std::vector<int>{test::line::shuffle, test::line::store});
  for (Pattern p : {Pattern::sequential, Pattern::interleaved_divergent, Pattern::interleaved_strided, Pattern::warp_shuffle}) {
    check_frames(parse_trace(test::synthetic_trace(p, 1000, 128), "s.json"));
  }
}

TEST_CASE("a trace with no events has no frame and highlights nothing", "[frames]") {
  std::ifstream in(data("interleaved8.json"));
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["events"] = nlohmann::json::array();
  const TreeLayout lay = layout_tree(parse_trace(doc.dump(), "empty.json"));
  REQUIRE(lay.frames.empty());
  REQUIRE(frame_lines(lay, 0).empty());
}

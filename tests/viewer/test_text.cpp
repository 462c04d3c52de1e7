// The words on the figure: values that fit their cells, sentences that wrap only between phrases,
// the kernel's own name for its shared array.
#include <catch2/catch.hpp>

#include "viewer/cell_text.h"
#include "viewer/source_names.h"
#include "viewer/step_text.h"
#include "viewer/steps.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;

TEST_CASE("a value takes the most digits (4 at most) that fit its cell", "[text]") {
  REQUIRE(format_cell_value(-0.316408157, 100) == "-0.3164");
  REQUIRE(format_cell_value(-0.316408157, 26) == "-.3164");
  REQUIRE(format_cell_value(1.911611557, 26) == "1.912");
  REQUIRE(format_cell_value(12345.6, 26) == "1.23e4");
  // two decimals when no digit of precision fits
  REQUIRE(format_cell_value(-0.00901663, 16) == "-.01");
  REQUIRE(format_cell_value(0.0, 5) == "0");
  REQUIRE(format_cell_value(std::nan(""), 20) == "NaN");
  REQUIRE(format_cell_value(-0.316408157, 3).empty());
  for (double v : {-0.9742, 17.1423, -811.03, 1e-7, 3.0, -12345678.0}) {
    for (float w : {14.f, 16.f, 18.f, 26.f, 40.f}) {
      const std::string s = format_cell_value(v, w);
      REQUIRE(compact_width(s) <= w);
      if (w >= 18) REQUIRE(!s.empty());
    }
  }
  int count = 0;
  const CompactGlyph* glyphs = compact_glyphs(&count);
  for (int i = 0; i < count; ++i) {
    for (const char* row : glyphs[i].rows)
      REQUIRE(static_cast<int>(std::string(row).size()) == glyphs[i].width);
  }
}

TEST_CASE("the step's sentence wraps between phrases, never inside one", "[text]") {
  const Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const StepIndex idx = index_steps(t);
  for (int s = 0; s < idx.count(); ++s) {
    const std::vector<std::string> phrases = step_phrases(t, idx, s);
    for (float width : {300.f, 628.f, 1264.f}) {
      const std::vector<std::string> lines = wrap_phrases(phrases, width);
      // Every phrase whole on one line; the lines, joined, are the phrases in order.
      std::string joined, expected;
      for (const auto& l : lines) joined += (joined.empty() ? "" : kPhraseSeparator) + l;
      for (const auto& p : phrases) expected += (expected.empty() ? "" : kPhraseSeparator) + p;
      REQUIRE(joined == expected);
      for (const auto& l : lines) {
        bool whole = true;
        std::size_t at = 0;
        while (at < l.size()) {
          const auto next = l.find(kPhraseSeparator, at);
          const std::string piece =
              l.substr(at, next == std::string::npos ? std::string::npos : next - at);
          whole = whole && std::find(phrases.begin(), phrases.end(), piece) != phrases.end();
          at = next == std::string::npos ? l.size() : next + std::string(kPhraseSeparator).size();
        }
        REQUIRE(whole);
        if (l.find(kPhraseSeparator) != std::string::npos) REQUIRE(text_width(l) <= width);
      }
    }
  }
  REQUIRE(step_phrases(t, idx, 1)[0] == "step 2 of 20, in launch 0");
  REQUIRE(step_phrases(t, idx, 1)[3] == "2-way bank conflict in 24 of 24 warp accesses");
}

TEST_CASE("a long sentence is cut after its ';', ',' and ':'", "[text]") {
  const std::string s =
      "thread 5 read partial[37] at line 27; thread 37 wrote it at line 27 after the read, in the "
      "same interval: "
      "no __syncthreads between";
  const auto p = sentence_phrases(s);
  REQUIRE(p == std::vector<std::string>{"thread 5 read partial[37] at line 27;",
                                        "thread 37 wrote it at line 27 after the read,",
                                        "in the same interval:", "no __syncthreads between"});
  std::string joined;
  for (const auto& x : p) joined += (joined.empty() ? "" : " ") + x;
  REQUIRE(joined == s);
}

TEST_CASE("the shared array goes by the kernel's name for it", "[text]") {
  REQUIRE(shared_array_name({"  // Shared<Trace> not_this = x;",
                             "  Shared<Trace> partial = dynamic_shared<float>();"}) == "partial");
  REQUIRE(shared_array_name({"__shared__ float totals[Block / 32];"}) == "totals");
  REQUIRE(shared_array_name({"int x;"}) == "shared");
  StaleRead r;
  r.reader = 5;
  r.writer = 37;
  r.slot = 37;
  r.read_line = r.write_line = 27;
  REQUIRE(describe_stale_read(r, "partial") ==
          "thread 5 read partial[37] at line 27; thread 37 wrote it at line 27 after the read, in "
          "the same interval: no __syncthreads between");
}

#include <catch2/catch.hpp>

#include <cctype>
#include <fstream>

#include "viewer/glossary.h"
#include "viewer_test_support.h"

using namespace rl::viewer;

TEST_CASE("the viewer's glossary is lessons/GLOSSARY.md, row for row", "[glossary]") {
  // Counted here from the file on disk, without the viewer's parser: the rows whose third cell is a
  // two-digit lesson. The compiled-in copy must have the same terms in the same order.
  std::ifstream in(test::repo("lessons/GLOSSARY.md"));
  REQUIRE(in);
  std::vector<std::string> terms;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    const auto a = line.find(" | ");
    const auto b = line.find(" | ", a + 3);
    const auto c = line.find(" | ", b + 3);
    if (a == std::string::npos || b == std::string::npos || c == std::string::npos) continue;
    // the pattern cell may hold "\|": find the lesson cell as the first two-digit cell after it
    std::size_t cell = line.find("` | ", a);
    if (cell == std::string::npos) continue;
    const std::string lesson = line.substr(cell + 4, 2);
    if (lesson.size() == 2 && std::isdigit(lesson[0]) && std::isdigit(lesson[1]))
      terms.push_back(line.substr(2, a - 2));
  }
  const auto& g = course_glossary();
  REQUIRE(terms.size() >= 25);
  REQUIRE(g.size() == terms.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO("row " << i);
    CHECK(g[i].term == terms[i]);
    CHECK(!g[i].meaning.empty());
    CHECK(g[i].lesson >= 0);
    CHECK(g[i].lesson <= 20);
  }
}

TEST_CASE("a counter's words bring their meanings, and only theirs", "[glossary]") {
  const auto& g = course_glossary();
  const std::string notes =
      glossary_notes("top stalls (warps waiting per issue): long scoreboard 12.04, barrier 3.1", g);
  CHECK(notes.find("long scoreboard (lesson 00): ") != std::string::npos);
  CHECK(notes.find("warps per issue (lesson 00): ") != std::string::npos);
  CHECK(notes.find("short scoreboard") == std::string::npos);
  CHECK(glossary_notes("DRAM 11.6% of peak (4.20 MB read)", g).find("DRAM % of peak (lesson 00)") !=
        std::string::npos);
  CHECK(glossary_notes("shared loads: passes per warp access", g).find("wavefronts per request") !=
        std::string::npos);
  CHECK(glossary_notes("12.5 us", g).empty());
}

TEST_CASE("a glossary row's pattern may hold an escaped pipe", "[glossary]") {
  const auto g = parse_glossary(
      "| term | found as | taught in | meaning |\n|---|---|---|---|\n"
      "| either | `alpha\\|beta` | 03 | one or the other |\n| not a row | x | y |\n");
  REQUIRE(g.size() == 1);
  CHECK(g[0].lesson == 3);
  CHECK(glossary_notes("some beta here", g) == "either (lesson 03): one or the other");
  CHECK(glossary_notes("gamma", g).empty());
}

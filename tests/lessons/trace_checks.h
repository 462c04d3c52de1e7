#pragma once
// What every lesson's trace must satisfy, whichever backend recorded it: the traced kernel computes
// what the untraced one does, every input element enters the tree exactly once, the last write to
// the output holds the result, and every index is in bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "common/host/trace_run.h"
#include "tests/lessons/lesson_cases.h"

namespace rl::test {

struct RecordedTrace {
  nlohmann::json trace;
  CaseResult untraced;
};

inline RecordedTrace record(Device& device, const Reducer& r, std::uint64_t n, unsigned block, std::uint64_t seed) {
  RunOptions o;
  o.seed = seed;
  Session session(device, o);
  session.prepare(n);
  RecordedTrace t{record_trace(session, r, block), session.run(r, block, false)};
  return t;
}

inline void check_trace(const RecordedTrace& t, std::uint64_t n, unsigned block) {
  const auto& tr = t.trace;
  INFO("lesson " << tr["lesson"] << " n=" << n << " block=" << block);
  CHECK(tr["schema"] == "reducelab.trace");
  CHECK(tr["n"] == n);
  CHECK(tr["input"].size() == n);
  // The traced kernel is the same arithmetic: the same bits as the untraced run.
  CHECK(tr["result"].get<float>() == static_cast<float>(t.untraced.check.got));
  CHECK(t.untraced.check.verified);

  std::vector<int> entered(n, 0);
  const auto& launches = tr["launches"];
  double last_output = std::nan("");
  for (const auto& e : tr["events"]) {
    REQUIRE(e.size() == 11);
    const auto launch = e[0].get<std::size_t>();
    REQUIRE(launch < launches.size());
    CHECK(e[3].get<unsigned>() < launches[launch]["grid"].get<unsigned>());
    CHECK(e[4].get<int>() < static_cast<int>(launches[launch]["block"].get<unsigned>()));
    for (int side : {5, 7}) {
      const std::string space = e[side];
      const auto index = e[side + 1].get<std::int64_t>();
      if (space == "shared" || space == "register") CHECK(index < static_cast<std::int64_t>(launches[launch]["block"].get<unsigned>()));
      if (space == "input") {
        REQUIRE(index < static_cast<std::int64_t>(n));
        if (side == 7) ++entered[static_cast<std::size_t>(index)];
      }
      if (space != "") CHECK(index >= 0);
    }
    if (e[5] == "output") last_output = e[9].get<double>();
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    INFO("input element " << i);
    CHECK(entered[i] == 1);
  }
  if (n > 0) CHECK(static_cast<float>(last_output) == tr["result"].get<float>());
}

// The same tree: the same events with the same values, whatever order each backend recorded them in.
inline void check_same_tree(const nlohmann::json& a, const nlohmann::json& b) {
  using Key = std::tuple<std::size_t, unsigned, std::string, unsigned, int, std::string, std::int64_t, std::string,
                         std::int64_t, float>;
  auto keys = [](const nlohmann::json& t) {
    std::vector<Key> k;
    for (const auto& e : t["events"])
      k.emplace_back(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], e[9].get<float>());
    std::sort(k.begin(), k.end());
    return k;
  };
  CHECK(a["launches"] == b["launches"]);
  CHECK(keys(a) == keys(b));
  CHECK(a["result"].get<float>() == b["result"].get<float>());
}

}  // namespace rl::test

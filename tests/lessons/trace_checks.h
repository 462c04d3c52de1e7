#pragma once
// What every lesson's trace must satisfy, whichever backend recorded it: the traced kernel computes
// what the untraced one does, every input element enters the tree exactly once, the last write to
// the output holds the result, and every index is in bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "common/host/course.h"
#include "common/host/trace_run.h"
#include "tests/lessons/ladder_cases.h"

namespace rl::test {

struct RecordedTrace {
  nlohmann::json trace;
  CaseResult untraced;
};

inline RecordedTrace record(Device& device, const Plan& r, std::uint64_t n, unsigned block,
                            std::uint64_t seed) {
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

  // v2 events: [launch, kind, block, thread, dst_space, dst_index, a_space, a_index, a_value,
  // b_space, b_index, b_value, value, line] (common/trace/FORMAT.md).
  std::vector<int> entered(n, 0);
  const auto& launches = tr["launches"];
  const auto& events = tr["events"];
  double last_output = std::nan("");
  for (std::size_t k = 0; k < events.size(); ++k) {
    const auto& e = events[k];
    REQUIRE(e.size() == 14);
    const auto launch = e[0].get<std::size_t>();
    REQUIRE(launch < launches.size());
    const unsigned launch_block = launches[launch]["block"].get<unsigned>();
    CHECK(e[2].get<unsigned>() < launches[launch]["grid"].get<unsigned>());
    CHECK(e[3].get<int>() < static_cast<int>(launch_block));
    CHECK(e[13].get<unsigned>() > 0);  // every event names the line that did it
    if (e[1] == "barrier" || e[1] == "warp_barrier") continue;
    if (e[4] == "register")
      CHECK(e[5].get<std::int64_t>() < static_cast<std::int64_t>(launch_block));
    for (int side : {6, 9}) {
      const std::string space = e[side];
      const auto index = e[side + 1].get<std::int64_t>();
      if (space == "input") {
        REQUIRE(index >= 0);
        REQUIRE(index < static_cast<std::int64_t>(n));
        ++entered[static_cast<std::size_t>(index)];
      }
      if (space == "event") CHECK(static_cast<std::size_t>(index) < k);  // an earlier event made it
      if (space != "" && space != "const") CHECK(index >= 0);
    }
    if (e[4] == "output") last_output = e[12].get<double>();
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    INFO("input element " << i);
    CHECK(entered[i] == 1);
  }
  if (n > 0) CHECK(static_cast<float>(last_output) == tr["result"].get<float>());
}

// The block that stored the result (the last "output" event): in a last-block finish, whichever
// block took the last ticket, which is not fixed on a GPU.
inline std::int64_t output_block(const nlohmann::json& t) {
  std::int64_t block = -1;
  for (const auto& e : t["events"])
    if (e[4] == "output") block = e[2].get<std::int64_t>();
  return block;
}

// The same tree: the same events with the same values, whatever order each backend recorded them
// in. An operand that names an earlier event is compared by that event's thread (its position
// differs between backends); barriers are left out (only the simulator records them). Where the
// two traces' results were stored by different blocks (a last-block finish, whose finishing block
// is whichever came last), the events are compared without their block: what is fixed is which
// threads add which values, not which block happened to finish.
inline void check_same_tree(const nlohmann::json& a, const nlohmann::json& b) {
  const bool same_finisher = output_block(a) == output_block(b);
  using Operand = std::tuple<std::string, std::int64_t, float>;
  using Key = std::tuple<std::size_t, std::string, unsigned, int, std::string, std::int64_t,
                         Operand, Operand, float>;
  auto keys = [&](const nlohmann::json& t) {
    const auto& events = t["events"];
    const auto operand = [&](const nlohmann::json& e, int side) {
      std::int64_t index = e[side + 1];
      if (e[side] == "event") index = events[static_cast<std::size_t>(index)][3].get<int>();
      return Operand{e[side], index, e[side + 2].is_null() ? 0.0f : e[side + 2].get<float>()};
    };
    std::vector<Key> k;
    for (const auto& e : events) {
      if (e[1] == "barrier" || e[1] == "warp_barrier") continue;
      k.emplace_back(e[0], e[1], same_finisher ? e[2].get<unsigned>() : 0u, e[3], e[4], e[5],
                     operand(e, 6), operand(e, 9), e[12].get<float>());
    }
    std::sort(k.begin(), k.end());
    return k;
  };
  CHECK(a["launches"] == b["launches"]);
  CHECK(keys(a) == keys(b));
  CHECK(a["result"].get<float>() == b["result"].get<float>());
}

}  // namespace rl::test

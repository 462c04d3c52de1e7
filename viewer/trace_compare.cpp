#include "viewer/trace_compare.h"

#include <map>
#include <tuple>
#include <vector>

namespace rl::viewer {
namespace {

// Where a write went, and which write there it was: (launch, block, space, buffer, index,
// occurrence). Shared and register locations belong to one block; global ones are keyed with block
// -1.
using WriteKey = std::tuple<int, int, int, int, std::int64_t, int>;

std::vector<WriteKey> keys_of(const Trace& t) {
  std::vector<WriteKey> keys(t.events.size(), WriteKey{-1, -1, -1, -1, -1, -1});
  std::map<std::tuple<int, int, int, int, std::int64_t>, int> seen;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    if (is_barrier(e.kind)) continue;
    const bool global = e.dst.space.kind == SpaceKind::buffer;
    const auto loc = std::tuple{e.launch, global ? -1 : e.block, static_cast<int>(e.dst.space.kind),
                                e.dst.space.buffer, e.dst.index};
    const int occurrence = seen[loc]++;
    keys[i] = {e.launch,           global ? -1 : e.block, static_cast<int>(e.dst.space.kind),
               e.dst.space.buffer, e.dst.index,           occurrence};
  }
  return keys;
}

void add_difference(std::string& s, const char* what, const std::string& a, const std::string& b) {
  if (a == b) return;
  if (!s.empty()) s += ", ";
  s += std::string(what) + " " + a + " and " + b;
}

}  // namespace

TraceComparison compare_traces(const Trace& left, const Trace& right) {
  TraceComparison c;
  add_difference(c.input_differences, "n", std::to_string(left.n), std::to_string(right.n));
  add_difference(c.input_differences, "block", std::to_string(left.block),
                 std::to_string(right.block));
  add_difference(c.input_differences, "seed", std::to_string(left.seed),
                 std::to_string(right.seed));
  add_difference(c.input_differences, "distribution", left.distribution, right.distribution);
  if (c.input_differences.empty() && left.input.size() == right.input.size()) {
    for (std::size_t i = 0; i < left.input.size(); ++i) {
      if (!same_value(left.input[i], right.input[i])) {
        c.input_differences = "input element " + std::to_string(i) + " differs";
        break;
      }
    }
  }
  c.same_input = c.input_differences.empty();
  if (!c.same_input) return c;

  const std::vector<WriteKey> lk = keys_of(left), rk = keys_of(right);
  std::map<WriteKey, int> right_at;
  for (std::size_t i = 0; i < rk.size(); ++i)
    if (std::get<0>(rk[i]) >= 0) right_at.emplace(rk[i], static_cast<int>(i));
  auto report = [&](int l, int r) {
    FirstDifference& d = c.first;
    d.found = true;
    d.event[0] = l;
    d.event[1] = r;
    const Trace& t = l >= 0 ? left : right;
    const Event& e = t.events[static_cast<std::size_t>(l >= 0 ? l : r)];
    d.value[0] = l >= 0 ? left.events[static_cast<std::size_t>(l)].value : 0.0;
    d.value[1] = r >= 0 ? right.events[static_cast<std::size_t>(r)].value : 0.0;
    d.launch = e.launch;
    d.block = e.block;
    d.thread = e.thread;
    d.location = t.location_name(e.dst);
  };
  std::vector<char> matched(right.events.size(), 0);
  for (std::size_t i = 0; i < lk.size(); ++i) {
    if (std::get<0>(lk[i]) < 0) continue;
    const auto it = right_at.find(lk[i]);
    if (it == right_at.end()) {
      report(static_cast<int>(i), -1);
      return c;
    }
    matched[static_cast<std::size_t>(it->second)] = 1;
    if (!same_value(left.events[i].value,
                    right.events[static_cast<std::size_t>(it->second)].value)) {
      report(static_cast<int>(i), it->second);
      return c;
    }
  }
  for (std::size_t i = 0; i < rk.size(); ++i) {
    if (std::get<0>(rk[i]) >= 0 && !matched[i]) {
      report(-1, static_cast<int>(i));
      return c;
    }
  }
  return c;
}

}  // namespace rl::viewer

#pragma once
// Synthetic traces for tests: the classic tree patterns written as trace JSON (format version 2),
// so the facts can be compared between patterns at sizes where bank conflicts show (blocks of 64+).
// Inputs are 1, 2, 3, ... so every partial sum is exact. Every operand names exactly the version
// it reads, so the loader finds no unexplained read in them.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rl::test {

enum class Pattern { sequential, interleaved_divergent, interleaved_strided, warp_shuffle };

inline const char* slug_of(Pattern p) {
  switch (p) {
    case Pattern::sequential:
      return "sequential_addressing";
    case Pattern::interleaved_divergent:
      return "interleaved_divergent";
    case Pattern::interleaved_strided:
      return "interleaved_strided";
    case Pattern::warp_shuffle:
      return "warp_shuffle";
  }
  return "?";
}

// The source lines the synthetic kernels claim, so tests can name them.
namespace line {
inline constexpr int load = 20, barrier_after_load = 21, grid_stride_add = 22, tree_add = 30,
                     tree_barrier = 31, register_add = 18, shuffle = 40, warp_store = 45,
                     warp_barrier_line = 46, warp_sum = 47, store = 50;
}

namespace detail {

using nlohmann::json;

// An operand as the file writes it: (space, index, value).
struct Op {
  std::string space;
  std::int64_t index = -1;
  double value = 0;
};
inline Op none() { return {"", -1, 0}; }
inline Op constant(double v) { return {"const", -1, v}; }
inline Op mem(const char* space, std::int64_t i, double v) { return {space, i, v}; }
inline Op event(int e, double v) { return {"event", e, v}; }

struct Writer {
  json events = json::array();
  int add(int launch, const char* kind, int block, int thread, const char* dst, std::int64_t di,
          const Op& a, const Op& b, double value, int line) {
    events.push_back({launch, kind, block, thread, dst, di, a.space, a.index, a.value, b.space,
                      b.index, b.value, value, line});
    return static_cast<int>(events.size()) - 1;
  }
  void barrier(int launch, int block, int line) {
    add(launch, "barrier", block, -1, "", -1, none(), none(), 0.0, line);
  }
};

// A shared-memory block: thread t loads its first element (or the identity 0 past the end) into
// shared[t], adds the rest of its grid-stride elements into it, then the tree of pattern p runs.
// `elements` are (buffer, index, value) of this block's inputs in thread order. Returns the total.
inline double shared_block(Writer& w, Pattern p, int launch, int block, int b,
                           const std::vector<Op>& elements) {
  std::vector<double> vals(static_cast<std::size_t>(b), 0.0);
  for (int t = 0; t < b; ++t) {
    const auto ut = static_cast<std::size_t>(t);
    if (ut < elements.size()) {
      vals[ut] = elements[ut].value;
      w.add(launch, "load", block, t, "shared", t, elements[ut], none(), vals[ut], line::load);
      for (std::size_t j = ut + static_cast<std::size_t>(b); j < elements.size();
           j += static_cast<std::size_t>(b)) {
        const double before = vals[ut];
        vals[ut] += elements[j].value;
        w.add(launch, "combine", block, t, "shared", t, mem("shared", t, before), elements[j],
              vals[ut], line::grid_stride_add);
      }
    } else {
      w.add(launch, "load", block, t, "shared", t, constant(0), none(), 0.0, line::load);
    }
  }
  w.barrier(launch, block, line::barrier_after_load);
  for (int s = 1, half = b / 2; s < b; s *= 2, half /= 2) {
    for (int t = 0; t < b; ++t) {
      int d = -1;
      int stride = 0;
      if (p == Pattern::sequential && t < half) {
        d = t;
        stride = half;
      } else if (p == Pattern::interleaved_divergent && t % (2 * s) == 0) {
        d = t;
        stride = s;
      } else if (p == Pattern::interleaved_strided && 2 * s * t < b) {
        d = 2 * s * t;
        stride = s;
      }
      if (d < 0) continue;
      const auto ud = static_cast<std::size_t>(d), us = static_cast<std::size_t>(d + stride);
      const Op a = mem("shared", d, vals[ud]), bo = mem("shared", d + stride, vals[us]);
      vals[ud] += vals[us];
      w.add(launch, "combine", block, t, "shared", d, a, bo, vals[ud], line::tree_add);
    }
    w.barrier(launch, block, line::tree_barrier);
  }
  return vals[0];
}

// A register block: thread t sums its grid-stride elements into a register from the constant 0,
// the lanes of each warp shuffle down, lane 0 of each warp leaves its sum in shared[warp] and
// thread 0 adds those. Returns the total and sets `last` to the event holding it in thread 0.
inline double register_block(Writer& w, int launch, int block, int b,
                             const std::vector<Op>& elements, int& last) {
  std::vector<double> vals(static_cast<std::size_t>(b), 0.0);
  std::vector<int> made(static_cast<std::size_t>(b), -1);  // the event holding each thread's sum
  auto operand = [&](int t) {
    const auto ut = static_cast<std::size_t>(t);
    return made[ut] >= 0 ? event(made[ut], vals[ut]) : constant(0);
  };
  for (int t = 0; t < b; ++t) {
    for (std::size_t j = static_cast<std::size_t>(t); j < elements.size();
         j += static_cast<std::size_t>(b)) {
      const Op a = operand(t);
      vals[static_cast<std::size_t>(t)] += elements[j].value;
      made[static_cast<std::size_t>(t)] =
          w.add(launch, "combine", block, t, "register", t, a, elements[j],
                vals[static_cast<std::size_t>(t)], line::register_add);
    }
  }
  for (int off = 16; off >= 1; off /= 2) {
    // Every lane reads before any lane writes (a shuffle exchanges this round's values).
    const std::vector<double> before = vals;
    const std::vector<int> made_before = made;
    for (int t = 0; t < b; ++t) {
      const auto ut = static_cast<std::size_t>(t), uo = static_cast<std::size_t>(t + off);
      if (t % 32 >= off || t + off >= b || made_before[ut] < 0) continue;
      const Op a = event(made_before[ut], before[ut]);
      const Op bo = made_before[uo] >= 0 ? event(made_before[uo], before[uo]) : constant(0);
      vals[ut] = before[ut] + before[uo];
      made[ut] = w.add(launch, "shuffle", block, t, "register", t, a, bo, vals[ut], line::shuffle);
    }
  }
  if (b > 32) {
    const int warps = (b + 31) / 32;
    for (int wp = 0; wp < warps; ++wp) {
      const auto u = static_cast<std::size_t>(wp * 32);
      if (made[u] >= 0)
        w.add(launch, "store", block, wp * 32, "shared", wp, event(made[u], vals[u]), none(),
              vals[u], line::warp_store);
      else
        w.add(launch, "store", block, wp * 32, "shared", wp, constant(0), none(), 0.0,
              line::warp_store);
    }
    w.barrier(launch, block, line::warp_barrier_line);
    double total = vals[0];
    for (int wp = 1; wp < warps; ++wp) {
      const double v = vals[static_cast<std::size_t>(wp * 32)];
      const Op a = operand(0);
      total += v;
      vals[0] = total;
      made[0] = w.add(launch, "combine", block, 0, "register", 0, a, mem("shared", wp, v), total,
                      line::warp_sum);
    }
  }
  last = made[0];
  return vals[0];
}

inline int next_pow2(int v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}

}  // namespace detail

// n elements in blocks of `block` (a power of two); a second launch of one block finishes when
// there are several blocks (its threads add more than one partial each past 1024 partials).
inline std::string synthetic_trace(Pattern p, int n, int block) {
  using namespace detail;
  Writer w;
  std::vector<double> input(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) input[static_cast<std::size_t>(i)] = i + 1;
  const int grid = (n + block - 1) / block;
  const bool reg = p == Pattern::warp_shuffle;
  json launches = json::array();
  launches.push_back({{"kernel", slug_of(p)}, {"grid", grid}, {"block", block}, {"n", n}});

  // One block's part of launch 0 or 1, then thread 0 stores the block's total.
  std::vector<double> partials;
  auto run_block = [&](int launch, int b, int threads, const std::vector<Op>& elements,
                       const char* dst, int di) {
    int last = -1;
    const double total = reg ? register_block(w, launch, b, threads, elements, last)
                             : shared_block(w, p, launch, b, threads, elements);
    const Op from = reg ? (last >= 0 ? event(last, total) : constant(0)) : mem("shared", 0, total);
    w.add(launch, "store", b, 0, dst, di, from, none(), total, line::store);
    return total;
  };
  for (int b = 0; b < grid; ++b) {
    std::vector<Op> elements;
    for (int i = b * block; i < std::min(n, (b + 1) * block); ++i)
      elements.push_back(mem("input", i, input[static_cast<std::size_t>(i)]));
    partials.push_back(
        run_block(0, b, block, elements, grid > 1 ? "scratch" : "output", grid > 1 ? b : 0));
  }
  double result = partials[0];
  if (grid > 1) {
    const int b2 = std::min(next_pow2(grid), 1024);
    launches.push_back({{"kernel", slug_of(p)}, {"grid", 1}, {"block", b2}, {"n", grid}});
    std::vector<Op> elements;
    for (int i = 0; i < grid; ++i)
      elements.push_back(mem("scratch", i, partials[static_cast<std::size_t>(i)]));
    result = run_block(1, 0, b2, elements, "output", 0);
  }
  json doc = {{"schema", "reducelab.trace"},
              {"version", 2},
              {"lesson", 0},
              {"slug", slug_of(p)},
              {"title", std::string("Synthetic ") + slug_of(p)},
              {"variant", "synthetic"},
              {"backend", "sim"},
              {"device", "synthetic (tests/trace/synthetic_trace.h)"},
              {"source", ""},
              {"n", n},
              {"block", block},
              {"seed", 0},
              {"distribution", "1, 2, 3, ..."},
              {"input", input},
              {"result", result},
              {"launches", launches},
              {"buffers", {"input", "scratch", "output"}},
              {"barriers", true},
              {"capacity", w.events.size()},
              {"overflow", false},
              {"events", w.events}};
  return doc.dump();
}

}  // namespace rl::test

#pragma once
// Synthetic traces for tests: the classic shared-memory tree patterns written as trace JSON, so
// the facts can be compared between patterns at sizes where bank conflicts show (blocks of 64+).
// Inputs are 1, 2, 3, ... so every partial sum is exact.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rl::test {

enum class Pattern { sequential, interleaved_divergent, interleaved_strided, warp_shuffle };

inline const char* slug_of(Pattern p) {
  switch (p) {
    case Pattern::sequential: return "sequential_addressing";
    case Pattern::interleaved_divergent: return "interleaved_divergent";
    case Pattern::interleaved_strided: return "interleaved_strided";
    case Pattern::warp_shuffle: return "warp_shuffle";
  }
  return "?";
}

namespace detail {

struct Writer {
  nlohmann::json events = nlohmann::json::array();
  void add(int launch, int step, const char* kind, int block, int thread, const char* dst, std::int64_t di,
           const char* src, std::int64_t si, double value, int line) {
    events.push_back({launch, step, kind, block, thread, dst, di, src, si, value, line});
  }
};

// One block's tree over `vals` (already loaded into shared memory or registers at step 0).
// Returns the block's total and the last step used.
inline double block_tree(Writer& w, Pattern p, int launch, int block, std::vector<double> vals, int& step) {
  const int b = static_cast<int>(vals.size());
  if (p == Pattern::warp_shuffle) {
    // Per warp: lanes below the offset receive from lane + offset (shuffle down).
    for (int off = 16; off >= 1; off /= 2) {
      ++step;
      for (int t = 0; t < b; ++t) {
        const int lane = t % 32;
        if (lane < off && t + off < b) {
          vals[static_cast<std::size_t>(t)] += vals[static_cast<std::size_t>(t + off)];
          w.add(launch, step, "shuffle", block, t, "register", t, "register", t + off, vals[static_cast<std::size_t>(t)], 40);
        }
      }
    }
    double total = 0;
    for (int t = 0; t < b; t += 32) total += vals[static_cast<std::size_t>(t)];
    return total;
  }
  for (int s = 1, half = b / 2; s < b; s *= 2, half /= 2) {
    ++step;
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
      vals[static_cast<std::size_t>(d)] += vals[static_cast<std::size_t>(d + stride)];
      w.add(launch, step, "combine", block, t, "shared", d, "shared", d + stride, vals[static_cast<std::size_t>(d)], 30);
    }
    w.add(launch, step, "barrier", block, -1, "", -1, "", -1, 0.0, 31);
  }
  return vals[0];
}

}  // namespace detail

// n elements in blocks of `block` (a power of two); a second launch finishes when there are
// several blocks. warp_shuffle keeps everything in registers and sums warps only (block <= 32).
inline std::string synthetic_trace(Pattern p, int n, int block) {
  detail::Writer w;
  std::vector<double> input(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) input[static_cast<std::size_t>(i)] = i + 1;
  const int grid = (n + block - 1) / block;
  const bool reg = p == Pattern::warp_shuffle;
  nlohmann::json launches = nlohmann::json::array();
  launches.push_back({{"kernel", slug_of(p)}, {"grid", grid}, {"block", block}, {"n", n}});

  std::vector<double> partials;
  for (int b = 0; b < grid; ++b) {
    std::vector<double> vals(static_cast<std::size_t>(block), 0.0);
    for (int t = 0; t < block; ++t) {
      const int i = b * block + t;
      if (i >= n) continue;
      vals[static_cast<std::size_t>(t)] = input[static_cast<std::size_t>(i)];
      w.add(0, 0, "load", b, t, reg ? "register" : "shared", t, "input", i, vals[static_cast<std::size_t>(t)], 20);
    }
    if (!reg) w.add(0, 0, "barrier", b, -1, "", -1, "", -1, 0.0, 21);
    int step = 0;
    const double total = detail::block_tree(w, p, 0, b, vals, step);
    w.add(0, step + 1, "store", b, 0, grid > 1 ? "scratch" : "output", b, reg ? "register" : "shared", 0, total, 50);
    partials.push_back(total);
  }
  double result = partials[0];
  if (grid > 1) {
    int b2 = 1;
    while (b2 < grid) b2 *= 2;
    if (reg && b2 > 32) b2 = 32;
    launches.push_back({{"kernel", slug_of(p)}, {"grid", 1}, {"block", b2}, {"n", grid}});
    std::vector<double> vals(static_cast<std::size_t>(b2), 0.0);
    for (int t = 0; t < grid && t < b2; ++t) {
      vals[static_cast<std::size_t>(t)] = partials[static_cast<std::size_t>(t)];
      w.add(1, 0, "load", 0, t, reg ? "register" : "shared", t, "scratch", t, vals[static_cast<std::size_t>(t)], 20);
    }
    int step = 0;
    result = detail::block_tree(w, p, 1, 0, vals, step);
    w.add(1, step + 1, "store", 0, 0, "output", 0, reg ? "register" : "shared", 0, result, 50);
  }
  nlohmann::json doc = {
      {"schema", "reducelab.trace"}, {"version", 1}, {"lesson", 0}, {"slug", slug_of(p)},
      {"title", std::string("Synthetic ") + slug_of(p)}, {"variant", "synthetic"}, {"backend", "sim"},
      {"device", "synthetic (tests/trace/synthetic_trace.h)"}, {"source", ""}, {"n", n}, {"block", block},
      {"input", input}, {"result", result}, {"launches", launches},
      {"buffers", {"input", "scratch", "output"}}, {"capacity", w.events.size()}, {"overflow", false},
      {"events", w.events}};
  return doc.dump();
}

}  // namespace rl::test

// Writes a synthetic trace (tests/trace/synthetic_trace.h, format version 2) to stdout:
//   make_synthetic_trace sequential|interleaved_divergent|interleaved_strided|warp_shuffle N BLOCK
// viewer/testdata/synthetic_1024_sequential.json (the 60 fps check) was made with
//   make_synthetic_trace sequential 1024 256
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../trace/synthetic_trace.h"

int main(int argc, char** argv) {
  using rl::test::Pattern;
  if (argc != 4) {
    std::fprintf(stderr, "usage: make_synthetic_trace PATTERN N BLOCK\n");
    return 2;
  }
  const std::string p = argv[1];
  Pattern pattern = Pattern::sequential;
  if (p == "interleaved_divergent")
    pattern = Pattern::interleaved_divergent;
  else if (p == "interleaved_strided")
    pattern = Pattern::interleaved_strided;
  else if (p == "warp_shuffle")
    pattern = Pattern::warp_shuffle;
  else if (p != "sequential") {
    std::fprintf(stderr, "error: unknown pattern %s\n", p.c_str());
    return 2;
  }
  const int n = std::atoi(argv[2]), block = std::atoi(argv[3]);
  if (n < 1 || n > (1 << 20) || block < 1 || block > 1024 || (block & (block - 1))) {
    std::fprintf(stderr, "error: N must be 1..2^20 and BLOCK a power of two up to 1024\n");
    return 2;
  }
  std::puts(rl::test::synthetic_trace(pattern, n, block).c_str());
  return 0;
}

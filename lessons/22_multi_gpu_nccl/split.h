#pragma once
// How N elements are dealt to K GPUs: contiguous shares whose sizes differ by at most one, the
// first N % K shares one longer. A pure host function, so the host tests check it without a GPU.
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace rl {

struct Share {
  std::uint64_t first = 0;  // global index of the share's first element
  // may be 0 when N < K: that GPU adds nothing and still joins the collective
  std::uint64_t count = 0;
};

inline std::vector<Share> split_evenly(std::uint64_t n, unsigned parts) {
  if (parts == 0) throw std::invalid_argument("split_evenly: at least one part is needed");
  std::vector<Share> shares(parts);
  const std::uint64_t base = n / parts;
  const std::uint64_t longer = n % parts;  // this many shares take one extra element
  std::uint64_t first = 0;
  for (unsigned p = 0; p < parts; ++p) {
    shares[p] = {first, base + (p < longer ? 1 : 0)};
    first += shares[p].count;
  }
  return shares;
}

}  // namespace rl

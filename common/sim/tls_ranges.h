// Where the calling host thread's thread-local storage lies. A static __shared__ variable is a
// thread_local (qualifiers.h) and every block of a cluster runs on a host thread of its own, so a
// block's static shared memory is its host thread's copy: the same variable of another block is at
// the same offset in the same module's block of that thread's storage.
#pragma once
#include <cstddef>
#include <vector>

namespace rl::sim::detail {

struct TlsBlock {
  std::size_t module = 0;  // the module's TLS id (the program, a shared library)
  const unsigned char* begin = nullptr;
  std::size_t size = 0;
};
using TlsRanges = std::vector<TlsBlock>;

// The calling thread's static TLS blocks, one per module that has one.
TlsRanges current_tls_ranges();

// The block of `ranges` that holds [p, p + bytes), or null.
const TlsBlock* find_tls(const TlsRanges& ranges, const void* p, std::size_t bytes = 1);

}  // namespace rl::sim::detail

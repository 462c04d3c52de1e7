#pragma once
// Lessons whose kernels take the block size as a template parameter: the run-time block size picks
// the instantiation. Lesson declares `template <unsigned Block> static constexpr Kernel kernel = ...;`.
#include "common/cuda_compat.h"

namespace rl {
inline namespace RL_BACKEND_NS {

template <class Lesson>
constexpr auto kernel_for_block(unsigned block) {
  switch (block) {
    case 32: return Lesson::template kernel<32>;
    case 64: return Lesson::template kernel<64>;
    case 128: return Lesson::template kernel<128>;
    case 256: return Lesson::template kernel<256>;
    case 512: return Lesson::template kernel<512>;
    default: return Lesson::template kernel<1024>;  // the CLI admits only powers of two in [32, 1024]
  }
}

}  // namespace RL_BACKEND_NS
}  // namespace rl

#pragma once
// Lessons whose kernels take the block size as a template parameter: the run-time block size picks
// the instantiation. Lesson declares `template <unsigned Block, class Trace> static constexpr Kernel kernel`.
#include "common/cuda_compat.h"

namespace rl {
inline namespace RL_BACKEND_NS {

// Extra are the kernel's further template arguments (its trace policy).
template <class Lesson, class... Extra>
constexpr auto kernel_for_block(unsigned block) {
  switch (block) {
    case 32: return Lesson::template kernel<32, Extra...>;
    case 64: return Lesson::template kernel<64, Extra...>;
    case 128: return Lesson::template kernel<128, Extra...>;
    case 256: return Lesson::template kernel<256, Extra...>;
    case 512: return Lesson::template kernel<512, Extra...>;
    default: return Lesson::template kernel<1024, Extra...>;  // the CLI admits only powers of two in [32, 1024]
  }
}

}  // namespace RL_BACKEND_NS
}  // namespace rl

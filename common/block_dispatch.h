#pragma once
// Plans whose kernels take the block size as a template parameter (lessons 06-12): the run-time
// block size picks the instantiation. In a plan:
//     with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
//       launch(..., kernel<Block, Trace>, ...);
//     });
#include <type_traits>

#include "common/cuda_compat.h"

namespace rl {

template <unsigned Block>
using BlockSize = std::integral_constant<unsigned, Block>;

// Calls f(BlockSize<block>{}) for the block sizes the command line admits: powers of two in [32,
// 1024].
template <class F>
decltype(auto) with_block_size(unsigned block, F&& f) {
  switch (block) {
    case 32:
      return f(BlockSize<32>{});
    case 64:
      return f(BlockSize<64>{});
    case 128:
      return f(BlockSize<128>{});
    case 256:
      return f(BlockSize<256>{});
    case 512:
      return f(BlockSize<512>{});
    default:
      return f(BlockSize<1024>{});
  }
}

}  // namespace rl

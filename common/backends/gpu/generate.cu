#include "common/backends/gpu/generate.h"

#include <algorithm>

#include "common/backends/gpu/check.h"

namespace rl {
namespace {

// A grid-stride loop: any count with one modest grid; element k is value first + k of the stream.
__global__ void generate(float* out, std::uint64_t count, std::uint64_t first,
                         std::uint64_t mixed_seed, Distribution d) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t k = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < count;
       k += stride)
    out[k] = formula::value(mixed_seed, d, first + k);
}

}  // namespace

void generate_on_device(float* out, std::uint64_t count, std::uint64_t first, std::uint64_t seed,
                        Distribution d, void* stream) {
  if (count == 0) return;  // a zero-block grid is a launch error
  constexpr unsigned block = 256;
  const auto grid =
      static_cast<unsigned>(std::min<std::uint64_t>((count + block - 1) / block, 4096));
  generate<<<grid, block, 0, static_cast<cudaStream_t>(stream)>>>(out, count, first,
                                                                  formula::mix64(seed), d);
  check_launch("generate");
}

}  // namespace rl

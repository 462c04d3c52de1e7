#pragma once
// The read-only streaming ceiling: the fastest this GPU can pull n floats through its memory system
// with nothing else in the way. Each thread keeps four independent 16-byte loads in flight (memory
// latency is hidden by bytes in flight, not by threads alone) and adds them so the loads survive
// the optimiser; one float per block leaves the SM. Its Programmatic copy is the one a rung launched
// with programmatic dependent launch (lessons 13 and 15) is compared with: launched the same way, it
// lets the next grid be scheduled at once and reads while the grid before it may still run, waiting
// for that grid only before its one store (the fastest such a kernel can read).
#include <cstdint>

namespace rl::gpu {

template <bool Programmatic>
__global__ void stream_read(const float* __restrict__ in, std::uint64_t n,
                            float* __restrict__ sink) {
  if constexpr (Programmatic) cudaTriggerProgrammaticLaunchCompletion();
  const auto* in4 = reinterpret_cast<const float4*>(in);  // callers pass 16-byte aligned buffers
  const std::uint64_t n4 = n / 4;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (; i + 3 * stride < n4; i += 4 * stride) {  // four loads issued before any is used
    const float4 a = __ldg(in4 + i), b = __ldg(in4 + i + stride), c = __ldg(in4 + i + 2 * stride),
                 d = __ldg(in4 + i + 3 * stride);
    acc += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w) + (c.x + c.y + c.z + c.w) +
           (d.x + d.y + d.z + d.w);
  }
  for (; i < n4; i += stride) {
    const float4 a = __ldg(in4 + i);
    acc += a.x + a.y + a.z + a.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc += in[n4 * 4 + threadIdx.x];  // the scalar tail
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if constexpr (Programmatic) cudaGridDependencySynchronize();  // the grid before writes sink too
  // stores keep the loads; lane 0s race harmlessly
  if (threadIdx.x % 32 == 0) sink[blockIdx.x] = acc;
}

}  // namespace rl::gpu

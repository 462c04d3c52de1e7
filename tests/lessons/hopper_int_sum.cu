// Lesson 14's integer sum (int_sum: __reduce_add_sync) run by the tests: compiled by nvcc into the
// GPU suite and by g++ (through hopper_int_sum_sim.cpp) into the simulator suite.
#include "common/launch.h"
#include "tests/lessons/hopper_checks.h"

// Lesson 14's header defines its ticket counter, a __device__ variable, which the lesson's own plan
// (linked into the same programs) defines too: included in an inline namespace of this file's own,
// every name it defines here is a symbol apart (as tests/lessons/dropped_block_plan.cu does).
#undef RL_BACKEND_NS
#if defined(__CUDACC__)
#define RL_BACKEND_NS backend_gpu_int_sum
#else
#define RL_BACKEND_NS backend_sim_int_sum
#endif
#include "lessons/14_clusters_and_bulk_copies/clusters_and_bulk_copies.cuh"

namespace rl::test {

template <>
int int_sum_on<this_backend>(Device& device, const std::vector<int>& values) {
  constexpr unsigned block = 256;
  const std::uint64_t n = values.size();
  DeviceBuffer in(device, std::max<std::uint64_t>(n, 1) * sizeof(int));
  if (n) device.upload(in.get(), values.data(), n * sizeof(int));
  DeviceBuffer out(device, sizeof(int));
  zero_async(out.get(), sizeof(int), device.stream());
  const auto grid = static_cast<unsigned>(
      std::min<std::uint64_t>(ceil_div(std::max<std::uint64_t>(n, 1), block * 16), 528));
  launch("int_sum", int_sum<block>, dim3(grid), dim3(block), 0, device.stream(),
         static_cast<const int*>(in.get<int>()), out.get<int>(), n);
  device.synchronize();
  int total = 0;
  device.download(&total, out.get(), sizeof(int));
  return total;
}

}  // namespace rl::test

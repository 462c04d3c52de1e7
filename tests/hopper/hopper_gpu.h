// The kernels of hopper_kernels.cuh run on the GPU through rl::launch_ex (cudaLaunchKernelEx with
// the cluster and programmatic-serialization attributes): each function copies its input to the
// device, launches, waits, and returns what the kernel wrote.
#pragma once
#include <cstdint>
#include <vector>

namespace hopper_test::gpu {

// Compute capability as major * 10 + minor (90 for the H100).
int compute_capability();

// cluster_sum, or cluster_sum_split when `split`
std::vector<std::int64_t> cluster_sum(const std::vector<std::int64_t>& in, unsigned long long n,
                                      unsigned block, unsigned cluster, bool split = false);
// own and neighbour values of static_shared_per_block, one after the other
std::vector<int> static_shared_per_block(unsigned grid, unsigned block, unsigned cluster);
std::vector<unsigned> cluster_queries(unsigned grid, unsigned block, unsigned cluster);
// doubles, then sums_after<true> launched with programmatic_dependency (cluster_x `cluster`)
std::vector<float> dependent_sums(const std::vector<float>& in, unsigned block, unsigned cluster);
// bulk_load<how> of `count` floats per block
std::vector<float> bulk_load(const std::vector<float>& in, unsigned grid, unsigned block,
                             unsigned count, int how);
std::vector<int> tile_reduce(const std::vector<int>& in, unsigned size);
std::vector<float> tile_reduce(const std::vector<float>& in, unsigned size);
std::vector<int> warp_reduce(const std::vector<int>& in, unsigned mask, int untouched);
std::vector<unsigned> warp_reduce(const std::vector<unsigned>& in, unsigned mask,
                                  unsigned untouched);
// launch_ex's own check, before anything runs: grid.x not a multiple of cluster_x throws
void launch_partial_cluster();

}  // namespace hopper_test::gpu

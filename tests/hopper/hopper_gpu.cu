#include "tests/hopper/hopper_gpu.h"

#include <cuda_runtime.h>

#include "common/backends/gpu/check.h"
#include "common/launch.h"
#include "tests/hopper/hopper_kernels.cuh"

namespace hopper_test::gpu {
namespace {

// A device copy of a vector, and back.
template <class T>
class Buffer {
 public:
  explicit Buffer(std::size_t n) : n_(n) {
    RL_CUDA_CHECK(cudaMalloc(&p_, std::max<std::size_t>(n, 1) * sizeof(T)));
  }
  explicit Buffer(const std::vector<T>& host) : Buffer(host.size()) {
    RL_CUDA_CHECK(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  Buffer(std::size_t n, T fill) : Buffer(std::vector<T>(n, fill)) {}
  ~Buffer() { cudaFree(p_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  T* get() const { return p_; }
  std::vector<T> host() const {
    RL_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> out(n_);
    RL_CUDA_CHECK(cudaMemcpy(out.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }

 private:
  std::size_t n_;
  T* p_ = nullptr;
};

rl::LaunchAttributes cluster_of(unsigned blocks, bool dependent = false) {
  rl::LaunchAttributes a;
  a.cluster_x = blocks;
  a.programmatic_dependency = dependent;
  return a;
}

template <class T>
std::vector<T> run_tile_reduce(const std::vector<T>& in, unsigned size) {
  Buffer<T> d_in(in), d_out(3 * in.size(), T(0));
  const dim3 grid(1), block(static_cast<unsigned>(in.size()));
  switch (size) {
    case 32:
      rl::launch_ex("tile_reduce<32>", hopper_test::tile_reduce<32, T>, grid, block, 0, nullptr, {},
                    d_in.get(), d_out.get());
      break;
    case 16:
      rl::launch_ex("tile_reduce<16>", hopper_test::tile_reduce<16, T>, grid, block, 0, nullptr, {},
                    d_in.get(), d_out.get());
      break;
    default:
      rl::launch_ex("tile_reduce<8>", hopper_test::tile_reduce<8, T>, grid, block, 0, nullptr, {},
                    d_in.get(), d_out.get());
      break;
  }
  return d_out.host();
}

template <class T>
std::vector<T> run_warp_reduce(const std::vector<T>& in, unsigned mask, T untouched) {
  Buffer<T> d_in(in), d_out(3 * in.size(), untouched);
  rl::launch_ex("warp_reduce", hopper_test::warp_reduce<T>, dim3(1),
                dim3(static_cast<unsigned>(in.size())), 0, nullptr, {}, d_in.get(), d_out.get(),
                mask);
  return d_out.host();
}

}  // namespace

int compute_capability() {
  int device = 0, major = 0, minor = 0;
  RL_CUDA_CHECK(cudaGetDevice(&device));
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

std::vector<std::int64_t> cluster_sum(const std::vector<std::int64_t>& in, unsigned long long n,
                                      unsigned block, unsigned cluster, bool split) {
  const unsigned long long per = std::uint64_t{block} * cluster;
  const auto clusters = static_cast<unsigned>(std::max(1ull, (n + per - 1) / per));
  Buffer<std::int64_t> d_in(in), d_out(clusters, std::int64_t{-1});
  rl::launch_ex(split ? "cluster_sum_split" : "cluster_sum",
                split ? hopper_test::cluster_sum_split : hopper_test::cluster_sum,
                dim3(clusters * cluster), dim3(block), block * sizeof(std::int64_t), nullptr,
                cluster_of(cluster), d_in.get(), d_out.get(), n);
  return d_out.host();
}

std::vector<int> static_shared_per_block(unsigned grid, unsigned block, unsigned cluster) {
  Buffer<int> own(grid * block, -1), neighbour(grid * block, -1);
  rl::launch_ex("static_shared_per_block", hopper_test::static_shared_per_block, dim3(grid),
                dim3(block), 0, nullptr, cluster_of(cluster), own.get(), neighbour.get());
  std::vector<int> out = own.host();
  const std::vector<int> other = neighbour.host();
  out.insert(out.end(), other.begin(), other.end());
  return out;
}

std::vector<unsigned> cluster_queries(unsigned grid, unsigned block, unsigned cluster) {
  Buffer<unsigned> out(6 * grid * block, 0u);
  rl::launch_ex("cluster_queries", hopper_test::cluster_queries, dim3(grid), dim3(block), 0,
                nullptr, cluster_of(cluster), out.get());
  return out.host();
}

std::vector<float> dependent_sums(const std::vector<float>& in, unsigned block, unsigned cluster) {
  const auto n = static_cast<unsigned>(in.size());
  const unsigned grid = (n + block - 1) / block;
  Buffer<float> d_in(in), doubled(n, 0.0f), totals(grid, -1.0f);
  rl::launch_ex("doubles", doubles, dim3(grid), dim3(block), 0, nullptr, {}, d_in.get(),
                doubled.get(), n);
  rl::launch_ex("sums_after", sums_after<true>, dim3(grid), dim3(block), block * sizeof(float),
                nullptr, cluster_of(cluster, true), doubled.get(), totals.get(), n);
  return totals.host();
}

std::vector<float> bulk_load(const std::vector<float>& in, unsigned grid, unsigned block,
                             unsigned count, int how) {
  Buffer<float> d_in(in), d_out(in.size(), -1.0f);
  const std::size_t smem = how == into_static ? 0 : count * sizeof(float);
  const dim3 g(grid), b(block);
  switch (how) {
    case arrive_and_wait:
      rl::launch_ex("bulk_load", hopper_test::bulk_load<arrive_and_wait>, g, b, smem, nullptr, {},
                    d_in.get(), d_out.get(), count);
      break;
    case arrive_then_wait:
      rl::launch_ex("bulk_load", hopper_test::bulk_load<arrive_then_wait>, g, b, smem, nullptr, {},
                    d_in.get(), d_out.get(), count);
      break;
    case collective:
      rl::launch_ex("bulk_load", hopper_test::bulk_load<collective>, g, b, smem, nullptr, {},
                    d_in.get(), d_out.get(), count);
      break;
    default:
      rl::launch_ex("bulk_load", hopper_test::bulk_load<into_static>, g, b, smem, nullptr, {},
                    d_in.get(), d_out.get(), count);
      break;
  }
  return d_out.host();
}

std::vector<int> tile_reduce(const std::vector<int>& in, unsigned size) {
  return run_tile_reduce(in, size);
}
std::vector<float> tile_reduce(const std::vector<float>& in, unsigned size) {
  return run_tile_reduce(in, size);
}
std::vector<int> warp_reduce(const std::vector<int>& in, unsigned mask, int untouched) {
  return run_warp_reduce(in, mask, untouched);
}
std::vector<unsigned> warp_reduce(const std::vector<unsigned>& in, unsigned mask,
                                  unsigned untouched) {
  return run_warp_reduce(in, mask, untouched);
}

void launch_partial_cluster() {
  Buffer<unsigned> out(6 * 6 * 32, 0u);
  rl::launch_ex("cluster_queries", hopper_test::cluster_queries, dim3(6), dim3(32), 0, nullptr,
                cluster_of(4), out.get());
}

}  // namespace hopper_test::gpu

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

struct Record {
  uint3 thread, block;
  dim3 block_dim, grid_dim;
};

__global__ void record_builtins(Record* out) {
  const unsigned long long block_linear =
      blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned thread_linear =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  __syncthreads();  // the values must survive a switch to other threads
  out[block_linear * threads + thread_linear] = Record{threadIdx, blockIdx, blockDim, gridDim};
}

struct SmemReport {
  unsigned long long align_mod;
  unsigned long long bytes;
  int poisoned;  // this thread's slice was 0xFF bytes at block start
};

__global__ void dynamic_smem_probe(SmemReport* out, unsigned slice) {
  unsigned char* s = rl::dynamic_shared<unsigned char>();
  const unsigned tid = threadIdx.x;
  int poisoned = 1;
  for (unsigned i = tid * slice; i < (tid + 1) * slice && i < rl::sim::dynamic_shared_bytes(); ++i)
    poisoned = poisoned && s[i] == 0xFF;
  for (unsigned i = tid * slice; i < (tid + 1) * slice && i < rl::sim::dynamic_shared_bytes(); ++i)
    s[i] = static_cast<unsigned char>(blockIdx.x);
  out[blockIdx.x * blockDim.x + tid] = SmemReport{reinterpret_cast<std::uintptr_t>(s) % 16,
                                                  rl::sim::dynamic_shared_bytes(), poisoned};
}

__global__ void float_poison_probe(float* out) {
  const float* s = rl::dynamic_shared<float>();
  out[threadIdx.x] = s[threadIdx.x];  // never written: must read as NaN
}

// Two blocks that are provably alive at the same time on different host threads each
// fill their static __shared__ array, wait for each other, then check it is intact.
__global__ void static_shared_isolation(unsigned* arrived, unsigned* ok, unsigned* timed_out) {
  __shared__ unsigned tile[64];
  __shared__ __align__(16) float aligned_tile[4];
  const unsigned tid = threadIdx.x;
  tile[tid] = blockIdx.x * 1000u + tid;
  if (tid == 0) aligned_tile[0] = static_cast<float>(blockIdx.x);
  __syncthreads();
  if (tid == 0) {
    atomicAdd(arrived, 1u);
    unsigned long long spins = 0;
    while (atomicAdd(arrived, 0u) < 2u) {
      if (++spins > 2000000000ull) {
        atomicExch(timed_out, 1u);
        break;
      }
    }
  }
  __syncthreads();
  const bool mine = tile[tid] == blockIdx.x * 1000u + tid &&
                    aligned_tile[0] == static_cast<float>(blockIdx.x) &&
                    reinterpret_cast<std::uintptr_t>(aligned_tile) % 16 == 0;
  if (mine) atomicAdd(&ok[blockIdx.x], 1u);
}

}  // namespace

TEST_CASE("built-in variables of 3-D grids and blocks", "[builtins]") {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const unsigned threads = block.x * block.y * block.z, blocks = grid.x * grid.y * grid.z;
  for (const auto& opts : simtest::every_schedule(2)) {
    simtest::ScopedOptions scoped(opts);
    std::vector<Record> out(threads * blocks,
                            Record{{9, 9, 9}, {9, 9, 9}, dim3(9, 9, 9), dim3(9, 9, 9)});
    rl::sim::launch("record_builtins", record_builtins, grid, block, 0, out.data());
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const Record& r = out[b * threads + t];
        INFO("block " << b << " thread " << t);
        CHECK(r.thread.x == t % block.x);
        CHECK(r.thread.y == t / block.x % block.y);
        CHECK(r.thread.z == t / (block.x * block.y));
        CHECK(r.block.x == b % grid.x);
        CHECK(r.block.y == b / grid.x % grid.y);
        CHECK(r.block.z == b / (grid.x * grid.y));
        CHECK((r.block_dim.x == block.x && r.block_dim.y == block.y && r.block_dim.z == block.z));
        CHECK((r.grid_dim.x == grid.x && r.grid_dim.y == grid.y && r.grid_dim.z == grid.z));
      }
  }
  STATIC_REQUIRE(warpSize == 32);
  STATIC_REQUIRE(dim3(5).y == 1);
  STATIC_REQUIRE(dim3(5, 6).z == 1);
}

TEST_CASE("dynamic shared memory has the launch's size, 16-byte alignment and is fresh per block",
          "[smem]") {
  constexpr unsigned grid = 5, block = 32;
  const std::size_t bytes =
      GENERATE(std::size_t{0}, std::size_t{4}, std::size_t{1000}, std::size_t{228 * 1024});
  const unsigned slice = static_cast<unsigned>((bytes + block - 1) / block);
  // blocks reuse one runner
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  std::vector<SmemReport> out(grid * block, SmemReport{99, 99, -1});
  rl::sim::launch("dynamic_smem_probe", dynamic_smem_probe, dim3(grid), dim3(block), bytes,
                  out.data(), slice);
  for (const SmemReport& r : out) {
    CHECK(r.align_mod == 0);
    CHECK(r.bytes == bytes);
    CHECK(r.poisoned == 1);
  }
}

TEST_CASE("uninitialised dynamic shared floats read as NaN", "[smem]") {
  std::vector<float> out(64, 0.0f);
  rl::sim::launch("float_poison_probe", float_poison_probe, dim3(1), dim3(64), 64 * sizeof(float),
                  out.data());
  for (float f : out) CHECK(f != f);
}

TEST_CASE("static __shared__ is per block: two concurrent blocks do not see each other's",
          "[smem]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 2));
  unsigned arrived = 0, timed_out = 0;
  unsigned ok[2] = {0, 0};
  rl::sim::launch("static_shared_isolation", static_shared_isolation, dim3(2), dim3(64), 0,
                  &arrived, ok, &timed_out);
  REQUIRE(timed_out == 0u);  // the two blocks really overlapped in time
  CHECK(ok[0] == 64u);
  CHECK(ok[1] == 64u);
}

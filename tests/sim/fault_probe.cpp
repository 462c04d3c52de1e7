// A program whose kernel faults in many blocks at once, for the fault report's contract
// (tests/cli/expect_fault_report.cmake): one line, naming the lowest faulting block, after what the
// program had printed.
//   sim_fault_probe FIRST [cluster]
//                           blocks FIRST and above read past their dynamic shared memory; block
//                           FIRST spins first, so it is the last of them to fault, not the first;
//                           `cluster`: in clusters of 2 blocks (each on a host thread of its own)
#include <cstdlib>
#include <iostream>
#include <string>

#include "common/cuda_compat.h"
#include "common/host/fault_report.h"

namespace {

__global__ void reads_past_shared(unsigned first, float* out) {
  float* partial = rl::dynamic_shared<float>();
  partial[threadIdx.x] = 1.0f;
  __syncthreads();
  if (blockIdx.x >= first) {
    volatile unsigned spin = 0;
    for (unsigned i = 0; i < (blockIdx.x == first ? 3000000u : 1000u); ++i) spin = spin + 1;
    partial[threadIdx.x] += partial[threadIdx.x + blockDim.x];  // one block past its end
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = partial[threadIdx.x];
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned first = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 0;
  const bool clusters = argc > 2 && std::string(argv[2]) == "cluster";
  rl::report_kernel_faults(2, "error: ", 1);
  rl::sim::Options o;
  o.host_threads = 4;
  rl::sim::set_options(o);
  std::cout << "before the launch\n";  // buffered: stdout is a pipe under the test
  constexpr unsigned blocks = 16, threads = 64;
  static float out[blocks * threads];
  if (clusters) {
    rl::sim::LaunchAttributes pairs;
    pairs.cluster_x = 2;
    rl::sim::launch_ex("reads_past_shared", reads_past_shared, dim3(blocks), dim3(threads),
                       threads * sizeof(float), pairs, first, out);
    rl::sim::synchronize();
  } else {
    rl::sim::launch("reads_past_shared", reads_past_shared, dim3(blocks), dim3(threads),
                    threads * sizeof(float), first, out);
  }
  std::cout << "no fault\n";
  return 0;
}

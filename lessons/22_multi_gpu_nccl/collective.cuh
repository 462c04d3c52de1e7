#pragma once
// Lesson 22's collective: after each GPU has reduced its share to one float (lesson 12's kernel),
// one NCCL all-reduce adds those partials, and every GPU receives the total. multi_gpu.cu calls it
// for the sum and, on two spare floats, as a barrier between timed samples; and the exercise's
// variant, a reduce to one root GPU.
#include <cuda_runtime.h>
#include <nccl.h>

#include <vector>

#include "common/backends/gpu/nccl_check.h"

namespace rl {

// One GPU's part in the collective: its partial, where the group's total must go, and the
// communicator and stream it runs on (the stream already holds its local reduction).
struct CollectivePart {
  const float* partial = nullptr;
  float* total = nullptr;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
};

// THE IDEA: one all-reduce of one float per GPU; afterwards every GPU's `total` holds the sum of
// all partials. Each call is enqueued on its GPU's stream behind the local reduction, so nothing
// waits on the host. One thread drives several GPUs here, and a collective call for one GPU waits
// for the others': between ncclGroupStart and ncclGroupEnd, NCCL takes all the calls first, then
// runs them.
inline void all_reduce_sum(const std::vector<CollectivePart>& parts) {
  RL_NCCL_CHECK(ncclGroupStart());
  for (const CollectivePart& p : parts)
    RL_NCCL_CHECK(ncclAllReduce(p.partial, p.total, 1, ncclFloat, ncclSum, p.comm, p.stream));
  RL_NCCL_CHECK(ncclGroupEnd());
}

// The exercise's variant: the sum on one GPU only, the communicator's rank `root`; every other
// GPU's `total` is left as it was: what a program needs when one GPU alone goes on with the result.
inline void reduce_to_root(const std::vector<CollectivePart>& parts, int root) {
  RL_NCCL_CHECK(ncclGroupStart());  // as above: one thread speaks for every GPU
  for (const CollectivePart& p : parts)
    RL_NCCL_CHECK(ncclReduce(p.partial, p.total, 1, ncclFloat, ncclSum, root, p.comm, p.stream));
  RL_NCCL_CHECK(ncclGroupEnd());
}

}  // namespace rl

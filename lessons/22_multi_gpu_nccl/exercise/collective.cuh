// Exercise 22: a reduce to one root. Do what the TODO(student) in reduce_to_root asks; grade it
// with `bash lessons/grade.sh 22` on a machine with a GPU (two or more to see all of it), and when
// stuck ask `build-student/bin/22_multi_gpu_nccl --hint 1` (then 2, 3). The solution is
// ../collective.cuh.
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
  // TODO(student): the sum of all the parts' partials (one float each, at p.partial, queued on
  //   p.stream behind the local reduction) into p.total of the GPU whose rank in the communicator
  //   is `root`, and of that GPU only: every other part's p.total must keep what it held before
  //   (the grader poisons it), with the work queued on each GPU's own stream, so that the host
  //   never waits in between. This one host thread speaks for all the GPUs, as in all_reduce_sum
  //   above; a failed NCCL call must stop the program with its error. Graded (`bash
  //   lessons/grade.sh 22`, on a GPU only: NCCL has no simulator, so without a GPU the grader says
  //   SKIPPED): the lesson's all-reduce, then yours with the last GPU as the root, each over
  //   n = 1000, 2^20+3 and 2^24+3 floats split over one GPU, then over every visible GPU when
  //   there are several; seeded uniform data within the float rounding bound, and exact spikes to
  //   the bit. On one GPU the root is the only GPU; on two or more, a collective that writes any
  //   other GPU's total fails.
  (void)parts, (void)root;
}

}  // namespace rl

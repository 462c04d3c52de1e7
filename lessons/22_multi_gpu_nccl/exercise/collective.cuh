// Exercise 22: the collective. Do what the TODO(student) in all_reduce_sum asks; grade it with
// `bash lessons/grade.sh 22` on a machine with a GPU, and when stuck ask
// `build-student/bin/22_multi_gpu_nccl --hint 1` (then 2, 3). The solution is ../collective.cuh.
#pragma once
// Lesson 22's collective: after each GPU has reduced its share to one float (lesson 12's kernel),
// one NCCL all-reduce adds those partials, and every GPU receives the total. multi_gpu.cu calls it
// for the sum and, on two spare floats, as a barrier between timed samples.
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

// THE IDEA: one collective over the GPUs' partials, one float each. TODO(student): once yours
// works, compare it with the solution's account of this idea (../collective.cuh).
inline void all_reduce_sum(const std::vector<CollectivePart>& parts) {
  // TODO(student): the collective. Each part's GPU has its partial, one float at p.partial, queued
  //   on p.stream behind its local reduction. Afterwards every part's p.total must hold the sum of
  //   all the parts' partials, the same bits on every GPU, with the work queued on each GPU's own
  //   stream behind its local reduction, so that the host never waits in between. The parts'
  //   communicators (p.comm) form one NCCL group, and this one host thread speaks for all of its
  //   GPUs. A failed NCCL call must stop the program with its error, as elsewhere in the lesson
  //   (common/backends/gpu/nccl_check.h). The lesson also calls this on two spare floats, as a
  //   barrier between timed runs. Graded (`bash lessons/grade.sh 22`, on a GPU only: NCCL has no
  //   simulator, so without a GPU the grader says SKIPPED): the sum of n = 1000, 2^20+3 and 2^24+3
  //   floats split over one GPU, then over every visible GPU when there are several; seeded uniform
  //   data (seeds 1 and 20240601) within the float rounding bound of the whole plan, and exact
  //   spikes (a 1 at every 256th element from a seeded phase) to the bit, where a lost or doubled
  //   share cannot hide. Every GPU's total must be the same bits as GPU 0's. Each total is poisoned
  //   (NaN) before the run, so on one GPU, where the collective is a copy, a missing one still
  //   fails.
  (void)parts;
}

}  // namespace rl

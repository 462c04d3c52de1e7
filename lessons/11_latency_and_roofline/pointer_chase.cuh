#pragma once
// Lesson 11's latency probe: one thread follows a chain of indices through memory, each load's
// address being the value the load before it returned. No two loads can overlap, so the time a step
// takes is the latency of one load from wherever the chain lives (DRAM, or L2 for a short chain).
#include <cstdint>

#include "common/cuda_compat.h"

RL_NAMESPACE_BEGIN

// `hops` steps along next[] from next[*at]; leaves the index it stopped at in *at, so the next
// launch goes on into memory the last ones have not touched, and adds the indices it visited to
// *visited (a whole cycle's add up to a known total: the simulator's test checks it).
__global__ void pointer_chase(const unsigned* next, unsigned* at, std::uint64_t hops,
                              unsigned long long* visited) {
  unsigned i = *at;
  unsigned long long sum = 0;
  for (std::uint64_t h = 0; h < hops; ++h) {
    // the next address is this load's value: one load in flight, ever; __ldcg: from L2 or DRAM,
    // never this SM's L1
    i = __ldcg(next + i);
    sum += i;
  }
  *at = i;
  *visited += sum;
}

RL_NAMESPACE_END

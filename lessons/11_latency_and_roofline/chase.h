#pragma once
// Lesson 11's pointer chase as the host sets it up: a random cycle through a buffer, and one launch
// of the chase kernel (pointer_chase.cuh) on either backend.
#include <cstdint>
#include <vector>

#include "common/host/plan.h"

namespace rl::latency {

// The chase's buffer: `lines` lines of `line_bytes`, the first 4 bytes of each holding the index
// (in 4-byte elements) of the next line's first element, the rest unused; the lines form one random
// cycle through all of them (Sattolo's algorithm), drawn from `seed`. One index a line: a step
// never lands in a line an earlier step of the same lap brought into a cache.
std::vector<unsigned> chase_cycle(std::uint64_t lines, unsigned line_bytes, std::uint64_t seed);

// pointer_chase<<<1, 1, 0, stream>>>(next, at, hops, visited) on backend B: device pointers, one
// thread; defined in plan.cu, which is compiled once per backend.
template <Backend B>
void launch_chase(const unsigned* next, unsigned* at, std::uint64_t hops,
                  unsigned long long* visited, void* stream);

}  // namespace rl::latency

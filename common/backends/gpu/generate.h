#pragma once
// Makes input on the GPU itself, from the same formula as the host's (common/input_value.h): values
// [first, first + count) of the stream (seed, d). A 4 GiB share is written at memory speed in about
// a millisecond instead of crossing PCIe, and the host can still compute the reference of any
// slice.
#include <cstdint>

#include "common/input_value.h"

namespace rl {

// Enqueues the fill on `stream` (a cudaStream_t) of the current device; does not wait.
void generate_on_device(float* out, std::uint64_t count, std::uint64_t first, std::uint64_t seed,
                        Distribution d, void* stream);

}  // namespace rl

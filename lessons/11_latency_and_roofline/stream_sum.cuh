#pragma once
// Lesson 11: the bytes each thread keeps on their way from DRAM. One streaming sum whose loads in
// flight per thread and load width are template parameters: every rung of the lesson's table is
// this kernel with other numbers.
#include <cstdint>

#include "common/device/block_sum.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// The choice the lesson is about: how many independent loads each thread issues before it adds the
// first, and how many bytes each load brings (4: a float, 8: a float2, 16: a float4). The lesson's
// own plan runs stream_sum with these; its variants with others (plan.cu).
inline constexpr unsigned loads_in_flight = 4;
inline constexpr unsigned load_bytes = 16;

// The input viewed as Width-byte loads: floats, float2s or float4s.
template <unsigned Width, class Trace>
__device__ __forceinline__ auto as_loads(In<Trace> in) {
  if constexpr (Width == 4)
    return in;
  else if constexpr (Width == 8)
    return as_float2(in);
  else
    return as_float4(in);
}

// The sum of the floats one load brought, added pairwise: (x + y) + (z + w) for a float4.
template <class Load>
__device__ __forceinline__ auto floats_sum(const Load& v) {
  if constexpr (requires { v.w; })
    return (v.x + v.y) + (v.z + v.w);
  else if constexpr (requires { v.y; })
    return v.x + v.y;
  else
    return v;
}

template <unsigned Block, unsigned LoadsInFlight, unsigned LoadBytes, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) stream_sum(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  static_assert(LoadBytes == 4 || LoadBytes == 8 || LoadBytes == 16, "a float, float2 or float4");
  static_assert(LoadsInFlight >= 1 && LoadsInFlight <= 16, "1 to 16 loads in flight a thread");
  constexpr unsigned per_load = LoadBytes / sizeof(float);  // floats one load brings
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * Block;
  // For any alignment: the floats before the first LoadBytes boundary (the head) and after the last
  // whole load (the tail) are read one by one, so `in` may be any float's address.
  const std::uint64_t to_boundary =
      (per_load - address_of(in) / sizeof(float) % per_load) % per_load;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto body = as_loads<LoadBytes, Trace>(in + head);  // now LoadBytes-aligned
  const std::uint64_t loads = (n - head) / per_load;

  Float<Trace> sum = 0.0f;
  std::uint64_t q = thread;
  // THE IDEA: each thread issues LoadsInFlight independent loads of LoadBytes before it adds the
  // first, so LoadsInFlight x LoadBytes bytes of it are on their way from DRAM at once; Little's
  // law says how many bytes the GPU needs in flight to stream at its ceiling (README.md).
  // Consecutive threads read consecutive loads. `unroll 1`: the compiler may not unroll the loop,
  // which would let it issue the next turn's loads early, so what is in flight is what the template
  // says.
#pragma unroll 1
  for (; q + (LoadsInFlight - 1) * threads < loads; q += LoadsInFlight * threads) {
    using Load = decltype(__ldg(body));  // a float, float2 or float4 (or their traced kin)
    Load v[LoadsInFlight];
    // all issued, then all added
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) v[k] = __ldg(body + q + k * threads);
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) sum += floats_sum(v[k]);
  }
#pragma unroll 1
  for (; q < loads; q += threads) sum += floats_sum(__ldg(body + q));  // fewer than a turn's left
  const std::uint64_t tail = head + loads * per_load;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];

  sum = block_sum<Block, Trace>(sum);  // lesson 09
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// The exercise's variant (plan "load_ahead"): stream_sum's thread empties the memory's pipe at
// every turn: it issues a turn, waits for all of it, adds it, and only then issues the next. Here
// the next turn is issued before the turn it holds is added, so while a thread adds a turn (all
// but its last) the next is on its way: 2 x LoadsInFlight loads while it waits, at the cost of a
// second turn's registers.
template <unsigned Block, unsigned LoadsInFlight, unsigned LoadBytes, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    stream_sum_ahead(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  constexpr unsigned per_load = LoadBytes / sizeof(float);
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * Block;
  const std::uint64_t to_boundary =  // head, body and tail as in stream_sum
      (per_load - address_of(in) / sizeof(float) % per_load) % per_load;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto body = as_loads<LoadBytes, Trace>(in + head);
  const std::uint64_t loads = (n - head) / per_load;

  Float<Trace> sum = 0.0f;
  std::uint64_t q = thread;
  const std::uint64_t last_in_turn = (LoadsInFlight - 1) * threads;  // a turn: q .. q + this
  if (q + last_in_turn < loads) {
    using Load = decltype(__ldg(body));  // a float, float2 or float4 (or their traced kin)
    Load held[LoadsInFlight];            // the turn this thread adds next
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) held[k] = __ldg(body + q + k * threads);
#pragma unroll 1  // as in stream_sum: in flight is what the source says, no more
    for (q += LoadsInFlight * threads; q + last_in_turn < loads; q += LoadsInFlight * threads) {
      Load next[LoadsInFlight];
      // THE IDEA: issued before `held` is added, so these are in flight while the thread adds
#pragma unroll
      for (unsigned k = 0; k < LoadsInFlight; ++k) next[k] = __ldg(body + q + k * threads);
#pragma unroll
      for (unsigned k = 0; k < LoadsInFlight; ++k) {
        sum += floats_sum(held[k]);
        held[k] = next[k];  // the turn on its way becomes the one held
      }
    }
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) sum += floats_sum(held[k]);  // the last turn
  }
#pragma unroll 1
  for (; q < loads; q += threads) sum += floats_sum(__ldg(body + q));  // fewer than a turn's left
  const std::uint64_t tail = head + loads * per_load;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];

  sum = block_sum<Block, Trace>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

RL_NAMESPACE_END

// Exercise 11: loads ahead. Do what the TODO(student) below asks; grade it with
// `bash lessons/grade.sh 11`, and when stuck ask
// `build-student/bin/11_latency_and_roofline --hint 1` (then 2, 3). The solution is
// ../stream_sum.cuh. Name a value in a register `Float<Trace>`, as the code around does
// (common/device/traced.h): the same code then also records --trace.
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
  // TODO(student): the variant's idea. While a whole turn is left (q + last_in_turn < loads), take
  //   the loads as stream_sum does, LoadsInFlight of them a turn, `threads` apart, consecutive
  //   threads at consecutive loads, but never let the thread's pipe run dry: the next turn's loads
  //   must be issued before the thread adds the turn it holds, so that they are on their way while
  //   it adds. Then add what is left, fewer than a turn's loads, one load at a time as stream_sum
  //   does: every load of `body` is added once. Graded (`bash lessons/grade.sh 11`), every plan
  //   (the own kernel, 1x4B, 4x4B, 2x8B, 1x16B, 8x16B, and this variant, load_ahead: one float4 a
  //   turn): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too
  //   on a GPU) with 256-thread blocks, random floats within float rounding and integer data to the
  //   bit; then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and
  //   67 * block - 3; on the simulator the cases up to 2^16+1 again with each block's threads in
  //   reverse and in shuffled order. Then the idea, on the simulator: in a traced run at n = 2048
  //   with 256-thread blocks, thread 0 of block 0 must have issued 2 x LoadsInFlight loads (__ldg)
  //   before its first addition. Then the speed: on a GPU the variant over 2^26 floats must stream
  //   at least 90% of the streaming ceiling measured in the same run; on the simulator, which
  //   measures no speed, Little's law must predict as much from its 2 x LoadsInFlight loads of
  //   LoadBytes a thread (littles_law.h).
  (void)body, (void)q, (void)last_in_turn;
  const std::uint64_t tail = head + loads * per_load;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];

  sum = block_sum<Block, Trace>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

RL_NAMESPACE_END

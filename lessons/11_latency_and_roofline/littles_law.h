#pragma once
// Lesson 11's arithmetic, plain host code: Little's law for a memory system, the bytes a kernel
// keeps in flight, and the roofline's two roofs. The tests check each against numbers worked out by
// hand (tests/lessons/test_latency_sim.cpp).
#include <algorithm>
#include <cstdint>

namespace rl::latency {

// Little's law (J. D. C. Little, "A Proof for the Queuing Formula: L = lambda W", Operations
// Research 9(3), 1961): in a steady state, the number of items in a system is the rate at which
// they arrive times how long each stays. For memory the items are bytes: to stream `gbps` GB/s when
// each byte takes `latency_ns` to arrive, bandwidth x latency bytes must be on their way at every
// moment (GB/s x ns = bytes).
constexpr double bytes_in_flight_needed(double gbps, double latency_ns) {
  return gbps * latency_ns;
}

// The threads of a kernel that one SM holds while it streams: the blocks resident on it times the
// block, or fewer where the grid has fewer blocks than the GPU holds (then the busiest SM's share:
// the grid over the SMs, rounded up).
constexpr std::uint64_t resident_threads_per_sm(unsigned blocks_per_sm, unsigned block,
                                                std::uint64_t grid, unsigned sm_count) {
  const std::uint64_t per_sm = sm_count ? (grid + sm_count - 1) / sm_count : 0;
  return std::min<std::uint64_t>(blocks_per_sm, per_sm) * block;
}

// The bytes a kernel keeps in flight: loads each thread issues before it waits, times their width,
// times the threads that do it at once.
constexpr double bytes_in_flight(unsigned loads, unsigned load_bytes, std::uint64_t threads) {
  return static_cast<double>(loads) * load_bytes * static_cast<double>(threads);
}

// Little's law read the other way: `in_flight` bytes with the latency that makes `needed` bytes
// stream at the full bandwidth sustain this fraction of it (never more than all of it).
constexpr double sustainable_fraction(double in_flight, double needed) {
  return needed > 0 ? std::min(1.0, in_flight / needed) : 1.0;
}

// The roofline (S. Williams, A. Waterman and D. Patterson, "Roofline: An Insightful Visual
// Performance Model for Multicore Architectures", Communications of the ACM 52(4), 2009): a kernel
// doing `intensity` FLOPs for each byte it moves from DRAM reaches at most the lower of two roofs,
// the peak FLOP/s and intensity x the memory bandwidth.
constexpr double roofline_gflops(double peak_gflops, double intensity, double gbps) {
  return std::min(peak_gflops, intensity * gbps);
}
// Where the two roofs meet: below this many FLOPs a byte, a kernel is bound by memory.
constexpr double ridge_intensity(double peak_gflops, double gbps) {
  return gbps > 0 ? peak_gflops / gbps : 0.0;
}
// A float32 sum does one addition for each 4-byte element it reads.
inline constexpr double sum_intensity = 1.0 / 4.0;

// FP32 additions one SM completes a clock, by compute capability: 128 on 9.0 (the CUDA C++
// Programming Guide's table of arithmetic instruction throughput); 0 where this program does not
// know the figure (the report then leaves the compute roof out).
constexpr unsigned fp32_adds_per_clock(int major, int minor) {
  return major == 9 && minor == 0 ? 128 : 0;
}

// The simulator measures no time, so its side of the arithmetic (the grade of the exercise there)
// takes a DRAM it assumes. Bandwidth: the H100's streaming ceiling as this course measured it, 3077
// GB/s at 2^28 (assets/results/h100-bench.json). Latency: 1000 ns, an assumed round figure and not
// a measurement (this lesson's chase measures the GPU's). The verdicts the tests pin down (one
// 4-byte load in flight a thread fails the 90% target, lesson 12's four 16-byte loads pass) hold
// for any latency from 400 ns to 6 us.
struct DramModel {
  double gbps;
  double latency_ns;
};
inline constexpr DramModel simulated_dram{3077.0, 1000.0};

}  // namespace rl::latency

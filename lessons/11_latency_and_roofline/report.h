#pragma once
// Lesson 11's additions to the common run of its plans (LessonExtras, common/host/lesson_main.h):
// after the runs, the pointer chase, Little's law over the bytes each rung keeps in flight, and the
// roofline; and the exercise's speed target, which --grade checks after the correctness cases.
#include <cstdint>
#include <optional>
#include <string>

#include "common/host/device.h"
#include "common/host/lesson_main.h"
#include "lessons/11_latency_and_roofline/littles_law.h"

namespace rl::latency {

// The exercise's target. On the GPU: its variant (load_ahead) over target_n floats streams at least
// target_fraction of the streaming ceiling measured in the same run. On the simulator, which
// measures no speed: Little's law predicts at least that fraction from the kernel's loads in
// flight, the simulated device's shape and simulated_dram (littles_law.h). 90% is a first choice,
// to be confirmed on the H100: lessons 07-10 reached 84-89% of the ceiling there, lesson 12 97-99%.
inline constexpr std::uint64_t target_n = std::uint64_t{1} << 26;
inline constexpr double target_fraction = 0.90;

LessonExtras extras();

// One pointer chase through `lines` 128-byte lines on `device`: one lap, from the first line, that
// must end where it began having visited every line (the sum of the indices it saw is the whole
// cycle's); then, on a GPU and where `timed_hops` > 0, timed over calls of timed_hops steps each
// that go on from where the last one stopped.
struct Chase {
  std::uint64_t lines = 0;
  bool visited_all = false;
  std::uint64_t timed_hops = 0;  // 0: not timed
  Timing timing;                 // per call
  double ns_per_load = 0.0;
};
inline constexpr unsigned chase_line_bytes = 128;
Chase run_chase(Device& device, std::uint64_t lines, std::uint64_t timed_hops,
                const Sampling& sampling);

// The simulator's side of the target: why `own` (the lesson's own plan) at `block` threads a block
// keeps too few bytes in flight for `dram` on shape `s`, or nullopt when Little's law predicts at
// least target_fraction of the bandwidth.
std::optional<std::string> simulated_target(const Plan& own, unsigned block, const DeviceShape& s,
                                            const DramModel& dram = simulated_dram);
// The same from the figures alone: `loads` loads of `load_bytes` bytes in flight a thread,
// `blocks_per_sm` blocks of `block` threads an SM.
std::optional<std::string> simulated_target_of(unsigned loads, unsigned load_bytes, unsigned block,
                                               unsigned blocks_per_sm, const DeviceShape& s,
                                               const DramModel& dram = simulated_dram);

}  // namespace rl::latency

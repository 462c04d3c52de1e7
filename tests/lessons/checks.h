#pragma once
// What every lesson suite shares (tests/lessons/test_*.cpp), beside each subject's own part
// (ladder_checks.h: lessons 01-16, ops_checks.h: 16, matrix_checks.h: 17 and 18,
// axes_checks.h: 16). The same names mean the same check throughout:
//   check_graded_cases / check_graded_case: every case the student grader runs, through the
//       grader's own check (one line saying why a case fails), on this suite's device;
//   check_reduction: one reduction of the given input against the CPU reference, every output;
//   check_misaligned_inputs: inputs that start off every 16-byte boundary;
//   check_agree: the GPU's result against the simulator's on the same input.
// Each device is opened once per test executable and kept for every test case (opening one costs
// more than most cases); gpu() is for the GPU suites, whose main has already exited 77 (skipped)
// where there is no GPU (gpu_main.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"

namespace rl::test {

inline Device& sim() {
  static const std::unique_ptr<Device> device = make_sim_device();
  return *device;
}

inline Device& gpu() {
  static const std::unique_ptr<Device> device = make_gpu_device(nullptr);
  return *device;
}

// Host bytes of type t copied to the device `offset` elements past a 256-byte-aligned allocation:
// offset 0 is aligned, and any other offset starts the data off a 16-byte boundary.
struct OffsetInput {
  DeviceBuffer buffer;
  const void* at = nullptr;
  OffsetInput(Device& d, DType t, const std::vector<std::byte>& host, unsigned offset)
      : buffer(d, host.size() + 16 + offset * dtype_bytes(t)) {
    auto* base = buffer.get<std::byte>() + offset * dtype_bytes(t);
    if (!host.empty()) d.upload(base, host.data(), host.size());
    at = base;
  }
};

// A check whose answer is the graders' (why `what` fails, in one line, or nullopt when it passes).
inline void check_no_failure(const std::string& what, const std::optional<std::string>& failure) {
  INFO(what << ": " << failure.value_or("right"));
  CHECK_FALSE(failure);
}

// The GPU and the simulator on the same input: the same index (argmax, argmin), and values within
// twice the tolerance of each other (each may round its own way within the tolerance).
inline void check_agree(const std::string& what, const OpValue& on_gpu, const OpValue& on_sim,
                        double tolerance) {
  INFO(what << ": gpu " << on_gpu.value << " [" << on_gpu.index << "], sim " << on_sim.value << " ["
            << on_sim.index << "]");
  CHECK(on_gpu.index == on_sim.index);
  CHECK(std::fabs(on_gpu.value - on_sim.value) <= 2 * tolerance);
}

}  // namespace rl::test

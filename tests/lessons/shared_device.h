#pragma once
// One simulator and one GPU per test executable, opened on first use and kept for every test case
// (opening a device costs more than most cases). gpu() is for the GPU suites, whose main has
// already exited 77 where there is no GPU.
#include <memory>

#include "common/host/device.h"

namespace rl::test {

inline Device& sim() {
  static const std::unique_ptr<Device> device = make_sim_device();
  return *device;
}

inline Device& gpu() {
  static const std::unique_ptr<Device> device = make_gpu_device(nullptr);
  return *device;
}

}  // namespace rl::test

// The GPU suite's main: with no GPU it exits 77, which CTest reports as skipped (never as passed).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "common/host/device.h"

int main(int argc, char** argv) {
  std::string why;
  if (!rl::make_gpu_device(&why)) {
    std::cout << "skipped: " << why << '\n';
    return 77;
  }
  return Catch::Session().run(argc, argv);
}

// The GPU suite's main: with no GPU it exits 77, which CTest reports as skipped (never as passed).
#include "tests/catch_run.h"

#include <iostream>

#include "common/host/device.h"

int main(int argc, char** argv) {
  std::string why;
  if (!rl::make_gpu_device(&why)) {
    std::cout << "skipped: " << why << '\n';
    return 77;
  }
  return rl::test::run_catch(argc, argv);
}

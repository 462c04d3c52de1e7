// Catch2's implementation, compiled once for every suite: CATCH_CONFIG_RUNNER puts it here without
// a main, so the plain main (catch_main.cpp) and the GPU suites' own mains share it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/catch_run.h"

namespace rl::test {
int run_catch(int argc, char** argv) { return Catch::Session().run(argc, argv); }
}  // namespace rl::test

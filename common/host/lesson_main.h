#pragma once
// The whole of a lesson executable's main (lessons 01-12): everything it does is the harness's.
// Declared on its own so that a five-line main.cpp does not compile the harness's headers
// (CLI11 and nlohmann::json take seconds each, for every lesson).

namespace rl {

// Checks (and unless --check-only, times) every variant of lesson `number`; returns the exit code.
int lesson_main(int argc, const char* const* argv, int number);

}  // namespace rl

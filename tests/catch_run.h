#pragma once
// Runs every registered Catch2 test case with these arguments (Catch::Session().run); returns the
// exit code. Defined in catch_impl.cpp, the one file that compiles Catch2's implementation: the
// Session class is only declared where the implementation is.

namespace rl::test {
int run_catch(int argc, char** argv);
}  // namespace rl::test

// The main of the suites that need nothing before the tests run (Catch2 itself: catch_impl.cpp).
#include "tests/catch_run.h"

int main(int argc, char** argv) { return rl::test::run_catch(argc, argv); }

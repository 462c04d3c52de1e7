// Catch2's main for the suites that need nothing before the tests run.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

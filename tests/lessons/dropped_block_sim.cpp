// The dropped-block plan compiled by g++ for the simulator (as CMake does for each lesson's
// plan.cu).
#include "tests/lessons/dropped_block_plan.cu"

// Lesson 13's integer sum compiled by g++ for the simulator (as CMake does for each lesson's
// plan.cu).
#include "tests/lessons/hopper_int_sum.cu"

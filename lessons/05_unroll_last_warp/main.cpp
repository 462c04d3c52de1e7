// Lesson 05's executable. Read in this order:
//   unroll_last_warp.cuh              the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/05_unroll_last_warp/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<5>(argc, argv, rl::warp_waits::extras()); }

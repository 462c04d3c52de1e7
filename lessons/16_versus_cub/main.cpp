// Lesson 16's executable. Read in this order:
//   versus_cub.cuh                    the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"

int main(int argc, char** argv) { return rl::lesson_main<16>(argc, argv); }

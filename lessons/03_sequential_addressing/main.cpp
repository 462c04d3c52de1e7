// Lesson 03's executable. Read in this order:
//   sequential_addressing.cuh         the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/03_sequential_addressing/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<3>(argc, argv, rl::block_sizes::extras());
}

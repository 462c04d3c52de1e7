// Lesson 04's executable. Read in this order:
//   first_add_during_load.cuh         the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/04_first_add_during_load/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<4>(argc, argv, rl::block_coverage::extras());
}

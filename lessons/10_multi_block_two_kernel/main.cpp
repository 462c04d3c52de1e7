// Lesson 10's executable. Read in this order:
//   multi_block_two_kernel.cuh        the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/10_multi_block_two_kernel/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<10>(argc, argv, rl::second_step::extras());
}

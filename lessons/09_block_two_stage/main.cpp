// Lesson 09's executable. Read in this order:
//   block_two_stage.cuh               the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/09_block_two_stage/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<9>(argc, argv, rl::block_reduce::extras());
}

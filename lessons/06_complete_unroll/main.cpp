// Lesson 06's executable. Read in this order:
//   complete_unroll.cuh               the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/06_complete_unroll/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<6>(argc, argv, rl::compile_time_levels::extras());
}

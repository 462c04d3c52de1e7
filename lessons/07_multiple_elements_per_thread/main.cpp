// Lesson 07's executable. Read in this order:
//   multiple_elements_per_thread.cuh  the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/07_multiple_elements_per_thread/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<7>(argc, argv, rl::grid_sizing::extras());
}

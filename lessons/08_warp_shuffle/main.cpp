// Lesson 08's executable. Read in this order:
//   warp_shuffle.cuh                  the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/08_warp_shuffle/questions.h"

int main(int argc, char** argv) {
  return rl::lesson_main<8>(argc, argv, rl::shuffle_lanes::extras());
}

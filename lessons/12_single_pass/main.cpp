// Lesson 12's executable. Read in this order:
//   single_pass.cuh                   the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/12_single_pass/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<12>(argc, argv, rl::ticket::extras()); }

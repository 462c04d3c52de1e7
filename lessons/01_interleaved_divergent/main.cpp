// Lesson 01's executable. Read in this order:
//   interleaved_divergent.cuh         the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's question 1, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/01_interleaved_divergent/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<1>(argc, argv, rl::idle_lanes::extras()); }

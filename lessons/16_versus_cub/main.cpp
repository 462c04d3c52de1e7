// Lesson 16's executable. Read in this order:
//   versus_cub.cuh                    the kernel
//   plan.cu                           its launch: grid, block, shared memory, passes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces it
#include "common/host/lesson_main.h"
#include "lessons/16_versus_cub/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<16>(argc, argv, rl::libraries::extras()); }

// Lesson 13's executable. Read in this order:
//   dependent_launch.cuh              the kernels
//   plan.cu                           their launches: grid, block, the launch attribute
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces them
#include "common/host/lesson_main.h"
#include "lessons/13_dependent_launch/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<13>(argc, argv, rl::overlap::extras()); }

// Lesson 14's executable. Read in this order:
//   clusters_and_bulk_copies.cuh      the kernels
//   plan.cu                           their launches: grid, block, cluster, shared memory, attributes
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the harness checks, times and traces them
#include "common/host/lesson_main.h"
#include "lessons/14_clusters_and_bulk_copies/questions.h"

int main(int argc, char** argv) { return rl::lesson_main<14>(argc, argv, rl::clusters::extras()); }

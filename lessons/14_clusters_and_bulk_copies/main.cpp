// Lesson 14's executable. Read in this order:
//   clusters_and_bulk_copies.cuh      the kernels
//   plan.cu                           their launches: grid, block, cluster, shared memory, attributes
//   main.cpp                          this file: the harness checks, times and traces them
#include "common/host/lesson_main.h"

int main(int argc, char** argv) { return rl::lesson_main<14>(argc, argv); }

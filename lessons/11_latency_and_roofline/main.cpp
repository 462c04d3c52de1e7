// Lesson 11's executable. Read in this order:
//   stream_sum.cuh, pointer_chase.cuh  the kernels
//   plan.cu                            their launches: grid, block, passes
//   littles_law.h, report.cpp          the arithmetic, and the report after the runs
//   questions.cpp                      the exercise's questions, each answer derived
//   main.cpp                           this file: the harness checks, times and traces the plans
#include "common/host/lesson_main.h"
#include "lessons/11_latency_and_roofline/questions.h"
#include "lessons/11_latency_and_roofline/report.h"

int main(int argc, char** argv) {
  return rl::lesson_main<11>(argc, argv, rl::latency::with_questions(rl::latency::extras()));
}

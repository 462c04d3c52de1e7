// Lesson 15's executable. Read in this order:
//   launch_cost.cuh      the launch probe, the single pass that waits after its loads, and the
//                        recording replayed
//   plan.cu              its launches: one recording per set of arguments, replayed
//   report.cpp           the table after the runs: what a launch costs, four ways
//   questions.cpp        the exercise's questions, each answer derived
//   main.cpp             this file: the harness checks, times and traces the plans
#include "common/host/lesson_main.h"
#include "lessons/15_launch_cost/questions.h"
#include "lessons/15_launch_cost/report.h"

int main(int argc, char** argv) {
  // The report after the runs, and the exercise's questions: two additions, one file each.
  rl::LessonExtras extras = rl::launches::extras();
  extras.questions = rl::launch_floor::questions();
  return rl::lesson_main<15>(argc, argv, extras);
}

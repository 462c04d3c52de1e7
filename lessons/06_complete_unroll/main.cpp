// Lesson 06's executable: the kernel is in the header beside this file; checking, timing and
// reporting are the harness's (common/host/harness.h), the same for every lesson.
#include "common/host/lesson_main.h"

int main(int argc, char** argv) { return rl::lesson_main(argc, argv, 6); }

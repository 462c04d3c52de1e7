#pragma once
// Which kernel file this build compiled for the lesson being compiled: the solution, the exercise
// (student mode) or a student's submission. CMake defines RL_KERNEL_SOURCE for every lesson's
// objects (common/cmake/ReduceLabLesson.cmake); --grade, traces and the grader's log name it.
#include <string_view>

namespace rl {
// Internal linkage: RL_KERNEL_SOURCE differs from one lesson's objects to the next, and a program
// such as the runner or the viewer links many of them (an inline variable would be one for all).
namespace {
constexpr std::string_view kernel_source = RL_KERNEL_SOURCE;
}  // namespace
}  // namespace rl

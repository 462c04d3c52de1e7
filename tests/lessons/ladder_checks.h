#pragma once
// The ladder's checks, lessons 01-16 (tests/lessons/checks.h names them), shared by the
// simulator and GPU suites: the float sum of each lesson's plans.
#include <catch2/catch.hpp>

#include "common/host/course.h"
#include "common/host/grading.h"
#include "tests/lessons/checks.h"
#include "tests/lessons/ladder_cases.h"

namespace rl::test {

// Every graded case (common/host/grading.h: the cases the student grader runs too) within
// tolerance, integer data exact, the other block sizes as well, for each of `plans` that runs on
// this device.
inline void check_graded_cases(Device& device, const Plans& plans, bool huge) {
  for (const Plan& r : plans) {
    if (r.backend != device.backend()) continue;
    for (const GradeCase& c : graded_cases(huge)) {
      const CaseResult result = run_graded_case(device, r, c);
      const auto failure = failure_of(result, c);
      INFO("lesson " << r.lesson << " " << r.slug << " " << r.variant << " " << describe(c) << ": "
                     << failure.value_or("right"));
      CHECK(result.check.verified);
      if (c.exact) CHECK(result.check.got == result.check.reference.sum);
      CHECK_FALSE(failure);
    }
  }
}

// The same for every plan of one lesson.
inline void check_graded_cases(Device& device, int lesson, bool huge) {
  check_graded_cases(device, plans_of(lesson, device.backend()), huge);
}

// Any float pointer is a valid input, not only cudaMalloc's 256-byte aligned ones: offsets of 1 to
// 3 floats start the data off a 16-byte boundary (lesson 12's vector loads must handle the head).
inline void check_misaligned_inputs(Device& device, int lesson) {
  for (const Plan& r : plans_of(lesson, device.backend())) {
    for (std::uint64_t n : {0u, 1u, 2u, 3u, 5u, 1000u, (1u << 16) + 3}) {
      std::vector<float> host(n + 3);
      fill_input(host, 4242, Distribution::integers);
      DeviceBuffer in(device, host.size() * sizeof(float));
      device.upload(in.get(), host.data(), host.size() * sizeof(float));
      DeviceBuffer out(device, sizeof(float));
      DeviceBuffer scratch(device, r.scratch_bytes(n, 256, device.shape()));
      for (std::uint64_t offset = 1; offset <= 3; ++offset) {
        device.poison(out.get(), sizeof(float));
        r.reduce({in.get<float>() + offset, out.get<float>(), n, 256, scratch.get(), device.shape(),
                  device.stream()});
        device.synchronize();
        float got = 0.0f;
        device.download(&got, out.get(), sizeof(float));
        double expected = 0.0;
        for (std::uint64_t k = 0; k < n; ++k) expected += host[offset + k];
        INFO("lesson " << lesson << " " << r.variant << " n=" << n << " offset=" << offset);
        CHECK(got == expected);  // integer data: exact
      }
    }
  }
}

// Every plan launched to overlap the call before it (lessons 13 and 14) is right with two calls
// queued back to back, as the grade runs them; at least one plan of each such lesson is.
inline void check_queued_calls(Device& device, int lesson) {
  int graded = 0;
  for (const Plan& r : plans_of(lesson, device.backend())) {
    if (!is_queued_graded(r)) continue;
    ++graded;
    INFO("lesson " << lesson << " " << r.variant);
    const QueuedFigures f = queued_figures(device, r, 0);
    CHECK(f.error == "");
    const auto why = queued_judged(f, r, 0, device.shape());
    CHECK(why.has_value() == false);
    if (why) FAIL_CHECK(why->why);
  }
  CHECK(graded > 0);
}

}  // namespace rl::test

#pragma once
// The assertions both suites make for one lesson on one backend.
#include <catch2/catch.hpp>

#include "tests/lessons/lesson_cases.h"

namespace rl::test {

// Every size and seed within tolerance; integer data (sums below 2^24) exact; other block sizes too.
inline void check_lesson(Device& device, int lesson, bool huge) {
  for (const Reducer& r : reducers_of(lesson, device.backend())) {
    for (std::uint64_t n : foundation_sizes(huge)) {
      const bool large = n > (1u << 16);
      for (std::uint64_t seed : seeds) {
        if (large && seed != seeds[0]) continue;  // big sizes once: they cover every block anyway
        const CaseResult c = run_case(device, r, n, 256, seed, Distribution::uniform);
        INFO("lesson " << lesson << " " << r.slug << " " << r.variant << " n=" << n << " seed=" << seed
                       << " got=" << c.check.got << " expected=" << c.check.reference.sum
                       << " tolerance=" << c.check.tolerance);
        CHECK(c.check.verified);
      }
      if (n <= (1u << 20)) {  // integer data: every partial sum is exact, so the total must be too
        const CaseResult c = run_case(device, r, n, 256, seeds[1], Distribution::integers);
        INFO("lesson " << lesson << " " << r.variant << " integers n=" << n << " got=" << c.check.got
                       << " expected=" << c.check.reference.sum);
        CHECK(c.check.got == c.check.reference.sum);
      }
    }
    for (unsigned block : {32u, 64u, 128u, 512u, 1024u})
      for (std::uint64_t n : {std::uint64_t{block} + 1, std::uint64_t{1000}, std::uint64_t{block} * 67 - 3}) {
        const CaseResult c = run_case(device, r, n, block, seeds[2], Distribution::positive);
        INFO("lesson " << lesson << " " << r.variant << " block=" << block << " n=" << n << " got=" << c.check.got
                       << " expected=" << c.check.reference.sum);
        CHECK(c.check.verified);
      }
  }
}

}  // namespace rl::test

namespace rl::test {

// Any float pointer is a valid input, not only cudaMalloc's 256-byte aligned ones: offsets of 1 to
// 3 floats start the data off a 16-byte boundary (lesson 11's vector loads must handle the head).
inline void check_lesson_misaligned(Device& device, int lesson) {
  for (const Reducer& r : reducers_of(lesson, device.backend())) {
    for (std::uint64_t n : {0u, 1u, 2u, 3u, 5u, 1000u, (1u << 16) + 3}) {
      std::vector<float> host(n + 3);
      fill_input(host, 4242, Distribution::integers);
      DeviceBuffer in(device, host.size() * sizeof(float));
      device.upload(in.get(), host.data(), host.size() * sizeof(float));
      DeviceBuffer out(device, sizeof(float));
      DeviceBuffer scratch(device, r.scratch_bytes(n, 256, device.shape()));
      for (std::uint64_t offset = 1; offset <= 3; ++offset) {
        device.poison(out.get(), sizeof(float));
        r.reduce(in.get<float>() + offset, out.get<float>(), n, 256, scratch.get(), device.shape(), device.stream());
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

}  // namespace rl::test

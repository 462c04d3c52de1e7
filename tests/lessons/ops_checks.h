#pragma once
// Lesson 13's checks, shared by the simulator and GPU suites: typed input with deliberate ties,
// uploaded at any element offset, reduced through the host API, compared with the CPU reference.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/13_operators_and_types/ops_api.h"

namespace rl::test {

// Seeded values of type t with planted ties (ops_api.h): the data the grader reduces too.
inline std::vector<std::byte> typed_input(DType t, std::uint64_t n, std::uint64_t seed) {
  return ops_input(t, n, seed);
}

// Copies host bytes to the device `offset` elements past a 256-byte-aligned allocation.
struct OffsetInput {
  DeviceBuffer buffer;
  const void* at = nullptr;
  OffsetInput(Device& d, DType t, const std::vector<std::byte>& host, unsigned offset)
      : buffer(d, host.size() + 16 + offset * dtype_bytes(t)) {
    auto* base = buffer.get<std::byte>() + offset * dtype_bytes(t);
    if (!host.empty()) d.upload(base, host.data(), host.size());
    at = base;
  }
};

inline void check_op(Device& d, ReduceOp op, DType t, const std::vector<std::byte>& host, std::uint64_t n,
                     unsigned offset = 0) {
  const OffsetInput in(d, t, host, offset);
  const OpValue got = run_op(d, op, t, in.at, n);
  const std::uint64_t depth = ops_kernels(d.backend())->depth(op, t, n, d.shape());
  const OpReference ref = typed_reference(op, t, host.data(), n, depth);
  INFO(to_string(op) << " of " << n << " " << to_string(t) << " at offset " << offset << ": got " << got.value << " ["
                     << got.index << "], expected " << ref.expected.value << " [" << ref.expected.index
                     << "], tolerance " << ref.tolerance << ", depth " << depth);
  CHECK(matches(ref, got, op));
}

}  // namespace rl::test

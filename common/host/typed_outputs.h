#pragma once
// The outputs of lessons 18-21's typed kernels, read on the host. Each output is its operator's
// Op::Out (common/device/reduce_ops.cuh: a value, or for argmax and argmin a value and an index),
// whose size and layout depend on the operator and the element type, not on the backend. The
// kernels write arrays of them; the lessons copy those to the host as bytes and decode them here.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/host/typed.h"

namespace rl {

// Bytes of one output of (op, t): 4 for a float sum, 16 for a float argmax.
std::size_t reduce_output_bytes(ReduceOp op, DType t);
// Output i of an array of them, copied to the host, as a value (and index).
OpValue decode_output(ReduceOp op, DType t, const void* outputs_on_host, std::uint64_t i);
// The first `count` outputs of such an array, decoded.
std::vector<OpValue> decode_outputs(ReduceOp op, DType t,
                                    const std::vector<unsigned char>& outputs_on_host,
                                    std::uint64_t count);

// A value as the graders show it: 9 significant digits, and " at index i" for argmax and argmin.
std::string describe(const OpValue& v, ReduceOp op);

// The graders' check of lessons 19-21: every output in `raw` (as the kernels wrote them) against
// reference(i). `name` is what an output is ("row", "column", "output"); `first` describes the
// first wrong one: "row 3: expected 2.5 (within 1e-06), got 2.4", or "..., but the output was never
// written (it still holds the poison bytes)".
struct WrongOutputs {
  std::uint64_t count = 0;
  std::string first;
};
WrongOutputs wrong_outputs(ReduceOp op, DType t, const std::vector<unsigned char>& raw,
                           const std::function<OpReference(std::uint64_t i)>& reference,
                           const std::string& name);

}  // namespace rl

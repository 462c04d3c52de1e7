// Decoding the typed kernels' outputs (typed_outputs.h).
#include "common/host/typed_outputs.h"

#include <algorithm>
#include <cstring>

#include "common/host/table.h"
#include "common/host/type_dispatch.h"

namespace rl {

// Op::Out is laid out alike in both backends' instantiations: the simulator's types, which this
// file is compiled with (g++), describe the GPU's outputs too.
std::size_t reduce_output_bytes(ReduceOp op, DType t) {
  std::size_t bytes = 0;
  for_op_and_type(op, t, [&](auto o, auto) { bytes = sizeof(typename decltype(o)::type::Out); });
  return bytes;
}

OpValue decode_output(ReduceOp op, DType t, const void* outputs, std::uint64_t i) {
  OpValue v;
  for_op_and_type(op, t, [&](auto o, auto) {
    typename decltype(o)::type::Out out;
    std::memcpy(&out, static_cast<const unsigned char*>(outputs) + i * sizeof(out), sizeof(out));
    if constexpr (requires { out.index; })
      v = {static_cast<double>(out.value), out.index};
    else
      v = {static_cast<double>(out), 0};
  });
  return v;
}

std::vector<OpValue> decode_outputs(ReduceOp op, DType t, const std::vector<unsigned char>& outputs,
                                    std::uint64_t count) {
  std::vector<OpValue> values(count);
  for (std::uint64_t i = 0; i < count; ++i) values[i] = decode_output(op, t, outputs.data(), i);
  return values;
}

std::string describe(const OpValue& v, ReduceOp op) {
  return general(v.value, 9) +
         (has_index(op) ? " at index " + std::to_string(v.index) : std::string());
}

WrongOutputs wrong_outputs(ReduceOp op, DType t, const std::vector<unsigned char>& raw,
                           const std::function<OpReference(std::uint64_t i)>& reference,
                           const std::string& name) {
  const std::size_t one = reduce_output_bytes(op, t);
  WrongOutputs wrong;
  for (std::uint64_t i = 0; i < raw.size() / one; ++i) {
    const OpReference ref = reference(i);
    const OpValue got = decode_output(op, t, raw.data(), i);
    if (matches(ref, got, op) || wrong.count++ > 0) continue;
    const auto begin = raw.begin() + static_cast<std::ptrdiff_t>(i * one);
    const bool unwritten = std::all_of(begin, begin + static_cast<std::ptrdiff_t>(one),
                                       [](unsigned char b) { return b == 0xFF; });
    wrong.first =
        name + " " + std::to_string(i) + ": expected " + describe(ref.expected, op) +
        (ref.tolerance > 0 ? " (within " + general(ref.tolerance, 3) + ")" : std::string()) +
        (unwritten ? ", but the output was never written (it still holds the poison bytes)"
                   : ", got " + describe(got, op));
  }
  return wrong;
}

}  // namespace rl

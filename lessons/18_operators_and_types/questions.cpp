#include "lessons/18_operators_and_types/questions.h"

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/results.h"
#include "common/host/table.h"
#include "common/host/type_dispatch.h"
#include "common/host/typed.h"

namespace rl::widened {
namespace {

// Question 1: accumulators whose size is not the element's, each for its own reason.
struct Pair {
  ReduceOp op;
  DType type;
};
constexpr Pair accumulators[] = {{ReduceOp::sum, DType::i32},
                                 {ReduceOp::variance, DType::f16},
                                 {ReduceOp::variance, DType::i32},
                                 {ReduceOp::argmax, DType::f16}};

// Questions 2 and 3 read the runs at N = 2^28 elements of each type.
constexpr std::uint64_t question_n = std::uint64_t{1} << 28;
// The course's H100 run of this lesson, in the session of the ladder: the README's table, each
// record with the tolerance its result was checked against.
const char* const h100_file = "results/h100-beyond.json";
// The same table measured on an H200 (132 SMs at the H100's clock, faster memory).
const char* const h200_file = "results/h200-ops.json";

std::string pair_name(ReduceOp op, DType t) {
  return std::string(to_string(op)) + "_" + std::string(to_string(t));
}

// The bytes of the operator's accumulator (Op::Acc) as reduce_ops.cuh defines it: what a thread
// keeps per partial, a shuffle moves and a block publishes to scratch. The course's operators,
// which no build replaces; laid out alike in both backends' copies (typed_outputs.cpp says why).
std::size_t acc_bytes(ReduceOp op, DType t) {
  std::size_t bytes = 0;
  for_op_and_type(op, t, [&](auto o, auto) { bytes = sizeof(typename decltype(o)::type::Acc); });
  return bytes;
}

// The committed run of `op` over type `t` at question_n: the file's runs of this lesson (the H100
// file holds lessons 19-21's too, each run named by its lesson; the H200 file this lesson's alone).
nlohmann::json run_of(const char* file, ReduceOp op, DType t) {
  const nlohmann::json doc = committed_json(file, {"runs"});
  for (const auto& r : doc["runs"])
    if (r.value("lesson", std::string("18_operators_and_types")) == "18_operators_and_types" &&
        r.value("op", "") == to_string(op) && r.value("dtype", "") == to_string(t) &&
        r.value("n", std::uint64_t{0}) == question_n)
      return r;
  throw UsageError(committed_asset_path(file) + " has no run of " + std::string(to_string(op)) +
                   " over " + std::string(to_string(t)) + " at 2^28");
}

// The float16 sum's tolerance over the float32 sum's, on the H100: typed_reference's bound at the
// depth of each plan on that GPU (its grid from the occupancy the compiled kernel reached).
std::string bound_ratio() {
  return fixed(run_of(h100_file, ReduceOp::sum, DType::f16).at("tolerance").get<double>() /
                   run_of(h100_file, ReduceOp::sum, DType::f32).at("tolerance").get<double>(),
               2);
}

// CUB's time over ours for the float16 variance, on the H200.
std::string vs_cub_h200() {
  return fixed(run_of(h200_file, ReduceOp::variance, DType::f16).at("vs_cub").get<double>(), 2);
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  for (const Pair& p : accumulators)
    q.push_back({"acc_bytes_" + pair_name(p.op, p.type),
                 "Which type does an element widen to before it is combined (Widen, "
                 "reduce_ops.cuh), and what does the operator keep of it per partial, in which "
                 "type? A struct is padded to a multiple of its widest member's size.",
                 [p] { return std::to_string(acc_bytes(p.op, p.type)); },
                 {}});
  q.push_back({"bound_ratio_2p28",
               "The bound is gamma(depth) times the sum of |x| (typed_reference, "
               "common/host/typed.cpp). In which type are float16's partials added, so with which "
               "unit roundoff? And how many elements does one 16-byte load hold of each type, so "
               "how long is a thread's chain of combines (ops_depth, plan.cuh)? Within 10%.",
               bound_ratio, within(0, 0.10)});
  q.push_back({"vs_cub_variance_float16_h200",
               "CUB merges (count, mean, M2) once per element, a division each: on 16-bit data "
               "its time is set by the SMs' arithmetic, the same on both GPUs. Ours folds a whole "
               "load per merge and reads near the memory's speed. Start from the H100's x CUB in "
               "the README's table and ask which of the two times the H200's memory shortens "
               "(within 10%).",
               vs_cub_h200, within(0, 0.10)});
  return q;
}

}  // namespace rl::widened

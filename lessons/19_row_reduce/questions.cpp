#include "lessons/19_row_reduce/questions.h"

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/matrix_main.h"
#include "common/host/plan.h"
#include "common/host/results.h"
// The course's plan, with the course's own kernel header: this executable's sources never take a
// student's in its place (CMake points only the lesson's library at it).
#include "lessons/19_row_reduce/plan.cuh"

namespace rl::threads_a_row {
namespace {

// A float32 element, as a type of this file alone: rows_plan<Float32> is a function of its own, so
// it is never merged with the library's rows_plan<float>, which a student build compiles with the
// student's kernel header (the plan reads only the element's size).
struct Float32 {
  float value;
};
static_assert(sizeof(Float32) == sizeof(float));

// The course's H200 run of the lesson's float32 sum at five shapes.
const char* const h200_file = "results/h200-rows.json";

// The plan the course's H100 (132 SMs of 2048 threads) gets for a matrix whose rows start on
// 16-byte boundaries wherever their length lets them (an aligned base, as the benchmark allocates).
RowPlan plan(const MatrixShape& s) {
  return rows_plan<Float32>(s.m, s.n, s.n * sizeof(Float32) % 16 == 0, DeviceShape{});
}

// The kernel the plan launches: a group of lanes (a warp at most) a row, a block a row, or several
// blocks a row.
std::string kernel(const MatrixShape& s) {
  const RowPlan p = plan(s);
  if (p.lanes > 0) return "rows_by_groups";
  return p.splits == 1 ? "rows_by_block" : "rows_by_split_blocks";
}

// The H200's median time of the lesson's float32 sum at this shape, in microseconds.
double h200_us(const MatrixShape& s) {
  const nlohmann::json doc = committed_json(h200_file, {"runs"});
  for (const auto& r : doc["runs"])
    if (r.value("op", "") == "sum" && r.value("dtype", "") == "float32" &&
        r.value("shape", nlohmann::json::array()) == nlohmann::json{s.m, s.n})
      return r.at("time").at("median_ms").get<double>() * 1e3;
  throw UsageError(committed_asset_path(h200_file) + " has no float32 sum at " + shape_label(s));
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  for (const MatrixShape s : {MatrixShape{8192, 4096}, MatrixShape{2048, 4096},
                              MatrixShape{512, 4096}, MatrixShape{256, 8192}})
    q.push_back({"kernel_" + shape_key(s),
                 "Count a row's 16-byte loads first. Up to 256, the lanes of one warp take it; up "
                 "to 1024, only with a row for at least half of the warps the GPU holds at once. "
                 "Past that, slicing a row needs fewer rows than the GPU holds blocks at once, and "
                 "still 4 loads for each thread of a slice.",
                 [s] { return kernel(s); },
                 {}});
  for (const MatrixShape s : {MatrixShape{4096, 32}, MatrixShape{4096, 30}, MatrixShape{4096, 12}})
    q.push_back({"lanes_" + shape_key(s),
                 "A lane a load, rounded up to a power of two, at most 32. Is a row of this "
                 "length a whole number of 16-byte loads? If not, every load is one float.",
                 [s] { return std::to_string(plan(s).lanes); },
                 {}});
  for (const MatrixShape s :
       {MatrixShape{32, 32768}, MatrixShape{1000, 16384}, MatrixShape{4, std::uint64_t{1} << 22}})
    q.push_back({"splits_" + shape_key(s),
                 "Two limits, the smaller wins: the blocks a row that fill the GPU's resident "
                 "blocks once (8 blocks of 256 on each of 132 SMs, over the rows, rounded up), and "
                 "the most blocks a row that still give every thread of a block 4 loads (rounded "
                 "down, at least one).",
                 [s] { return std::to_string(plan(s).splits); },
                 {}});
  q.push_back({"h200_us_4096x4096",
               "A block a row streams the whole matrix once, as fast as the memory delivers it: "
               "start from the H100's time in the README's table and scale it by the two "
               "memories' peak bandwidths.",
               [] {
                 return std::to_string(h200_us({4096, 4096}));
               },
               // a measured time: a prediction by the bandwidths' ratio comes within 10%
               within(0, 0.10)});
  return q;
}

}  // namespace rl::threads_a_row

#include "lessons/20_column_reduce/questions.h"

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
#include "lessons/20_column_reduce/plan.cuh"

namespace rl::column_tiles {
namespace {

// A float32 element, as a type of this file alone: columns_plan<Float32> is a function of its own,
// so it is never merged with the library's columns_plan<float>, which a student build compiles with
// the student's kernel header (the plan reads only the element's size).
struct Float32 {
  float value;
};
static_assert(sizeof(Float32) == sizeof(float));

// The course's H200 run of the lesson's float32 sum, and of the naive atomic one, at five shapes.
const char* const h200_file = "results/h200-columns.json";

// The plan the course's H100 (132 SMs of 2048 threads) gets for a matrix whose rows start on
// 16-byte boundaries wherever their length lets them (an aligned base, as the benchmark allocates).
ColumnPlan plan(const MatrixShape& s) {
  return columns_plan<Float32>(s.m, s.n, s.n * sizeof(Float32) % 16 == 0, DeviceShape{});
}

// The columns one block's tile covers: its column threads, each a pack of columns wide where the
// rows are aligned, one column otherwise.
std::string tile_columns(const MatrixShape& s) {
  const std::uint64_t per_thread = s.n * sizeof(Float32) % 16 == 0 ? pack_size<Float32> : 1;
  return std::to_string(plan(s).col_threads * per_thread);
}

// The H200's median time of the naive atomic float32 sum at this shape, in microseconds.
double h200_naive_us(const MatrixShape& s) {
  const nlohmann::json doc = committed_json(h200_file, {"runs"});
  for (const auto& r : doc["runs"])
    if (r.value("op", "") == "sum" && r.value("dtype", "") == "float32" &&
        !r.value("deterministic", true) &&
        r.value("shape", nlohmann::json::array()) == nlohmann::json{s.m, s.n})
      return r.at("time").at("median_ms").get<double>() * 1e3;
  throw UsageError(committed_asset_path(h200_file) + " has no naive atomic sum at " +
                   shape_label(s));
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  for (const MatrixShape s :
       {MatrixShape{64, std::uint64_t{1} << 18}, MatrixShape{4096, 1000}, MatrixShape{4096, 1001}})
    q.push_back({"tile_columns_" + shape_key(s),
                 "A tile starts with a thread for each of the row's loads (rounded up to a power "
                 "of two, at most a block's threads) and halves, down to a warp, while the tiles "
                 "are fewer than half the blocks the GPU holds at once. Then count a thread's "
                 "columns: is the row a whole number of 16-byte loads?",
                 [s] { return tile_columns(s); },
                 {}});
  for (const MatrixShape s :
       {MatrixShape{std::uint64_t{1} << 16, 256}, MatrixShape{4096, 64}, MatrixShape{1000, 8}})
    q.push_back({"chunks_" + shape_key(s),
                 "Two limits on a tile's chunks, the smaller wins: the chunks that bring the "
                 "tiles up to half the blocks the GPU holds (rounded up), and the chunks that "
                 "still leave each row lane of a block 8 rows (rounded down, at least one). Round "
                 "the rows a chunk gets up, then count the chunks again.",
                 [s] { return std::to_string(plan(s).chunks); },
                 {}});
  for (const MatrixShape s : {MatrixShape{std::uint64_t{1} << 20, 8}, MatrixShape{4096, 4096}})
    q.push_back({"h200_naive_us_" + shape_key(s),
                 "What does each of these adds wait for: the memory's bytes, or its address's "
                 "turn at the L2, behind every other add to the same column? Which of the two did "
                 "the H200 change?",
                 [s] { return std::to_string(h200_naive_us(s)); },
                 // a measured time: the H100's, carried over by the right reasoning, comes within
                 // 10%
                 within(0, 0.10)});
  return q;
}

}  // namespace rl::column_tiles

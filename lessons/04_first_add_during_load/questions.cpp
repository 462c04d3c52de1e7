#include "lessons/04_first_add_during_load/questions.h"

#include <cstdint>
#include <string>
#include <vector>

#include "common/grid_size.h"

namespace rl::block_coverage {
namespace {

constexpr unsigned question_block = 256;
constexpr std::uint64_t n_2p24 = std::uint64_t{1} << 24, n_2p28 = std::uint64_t{1} << 28;
// Not a multiple of a block's 512 inputs: the last block of each launch is partly empty.
constexpr std::uint64_t n_2p20p7 = (std::uint64_t{1} << 20) + 7;

// The grid of every launch plan.cu makes for n, first to last, when each thread of a
// question_block-thread block adds `per_thread` inputs: tree_passes given a block's coverage, as
// plan.cu gives it 2 * block (and as the Task's plan gives it 4 * block).
std::vector<std::uint64_t> grids(std::uint64_t n, unsigned per_thread) {
  const std::uint64_t per_block = std::uint64_t{per_thread} * question_block;
  std::vector<float> scratch(tree_scratch_bytes(n, per_block) / sizeof(float) + 1), io(2);
  ReduceCall call{io.data(), io.data() + 1, n, question_block, scratch.data(), {}, nullptr};
  std::vector<std::uint64_t> blocks;
  for (const Pass& pass : tree_passes(call, per_block)) blocks.push_back(pass.blocks);
  return blocks;
}

std::string listed(const std::vector<std::uint64_t>& values) {
  std::string text;
  for (const std::uint64_t v : values) text += (text.empty() ? "" : ", ") + std::to_string(v);
  return text;
}

// In the halves variant a thread's second input lies the grid's reach after its first: as many
// inputs as the launch has threads (first_add_during_load.cuh). The first `launches` launches'.
std::string halves_apart(std::uint64_t n, std::size_t launches) {
  std::vector<std::uint64_t> reach;
  for (const std::uint64_t blocks : grids(n, 2))
    if (reach.size() < launches) reach.push_back(blocks * question_block);
  return listed(reach);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  const struct {
    const char* key;
    std::uint64_t n;
    unsigned per_thread;
  } grid_questions[] = {{"grids_two_2p24", n_2p24, 2},
                        {"grids_two_2p28", n_2p28, 2},
                        {"grids_four_2p24", n_2p24, 4},
                        {"grids_four_2p28", n_2p28, 4}};
  for (const auto& q : grid_questions)
    e.questions.push_back(
        {q.key,
         "A block now covers as many inputs as its threads times the inputs each adds while "
         "loading; each launch leaves one partial per block, the next reduces those partials, "
         "and the last launch is the one with a single block.",
         [q] { return listed(grids(q.n, q.per_thread)); },
         {}});
  e.questions.push_back({"apart_2p24",
                         "The grid's first loads cover one half of the input: a thread's second "
                         "input is as far on as the launch has threads.",
                         [] { return halves_apart(n_2p24, 1); },
                         {}});
  e.questions.push_back({"apart_2p20p7",
                         "The distance is the launch's threads, its blocks times 256, and each "
                         "launch has ceil(count / 512) blocks: at an odd N that is not half the "
                         "count. The second launch's count is the first's blocks.",
                         [] { return halves_apart(n_2p20p7, 2); },
                         {}});
  return e;
}

}  // namespace rl::block_coverage

// Lesson 22 on two or more GPUs: the multi-GPU total matches the CPU reference and the one-GPU
// total, for N that does not divide, N smaller than the GPU count, N = 0 and a large N; every GPU
// holds the same total; the one-process-per-GPU mode agrees. With fewer than two GPUs: exit 77.
#include <catch2/catch.hpp>

#include "tests/catch_run.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

#include "common/host/reference.h"
#include "lessons/22_multi_gpu_nccl/multi_gpu.h"
#include "tests/lessons/dropped_block.h"

using namespace rl;

namespace {

unsigned gpus() { return visible_gpus(); }

struct Sum {
  float total = 0.0f;
  double tolerance = 0.0;  // of this total against the exact sum
};

// Sums values [0, n) of the stream on `group`; checks that every GPU of the group holds the same
// bits.
Sum sum_on(MultiGpuSum& group, std::uint64_t n, Distribution d, const Reference& ref) {
  group.prepare(n, 77, d, 1024);
  const auto totals = group.run();
  for (float t : totals)
    CHECK(std::bit_cast<std::uint32_t>(t) == std::bit_cast<std::uint32_t>(totals.front()));
  return {totals.front(), tolerance(ref, group.depth())};
}

}  // namespace

TEST_CASE("K GPUs agree with the CPU reference and with one GPU", "[nccl]") {
  MultiGpuSum one(1);
  for (unsigned k = 2; k <= gpus(); ++k) {
    MultiGpuSum group(k);
    for (std::uint64_t n :
         {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{k - 1}, std::uint64_t{k + 1},
          std::uint64_t{1000003}, (std::uint64_t{1} << 24) + 5}) {
      const Reference ref = reference_of_stream(77, Distribution::uniform, 0, n);
      const Sum multi = sum_on(group, n, Distribution::uniform, ref);
      const Sum single = sum_on(one, n, Distribution::uniform, ref);
      INFO("k=" << k << " n=" << n << " multi=" << multi.total << " single=" << single.total
                << " reference=" << ref.sum);
      CHECK(std::abs(multi.total - ref.sum) <= multi.tolerance);
      // Both are within their bounds of the exact sum, so within the sum of the bounds of each
      // other.
      CHECK(std::abs(double{multi.total} - single.total) <= multi.tolerance + single.tolerance);
      if (n == 0) CHECK(multi.total == 0.0f);
    }
  }
}

TEST_CASE("whole numbers sum exactly, whichever GPU adds which", "[nccl]") {
  // Values 1..8 and N < 2^21: every partial sum is below 2^24, so exact in float in any order:
  // the device-made input must be exactly the host formula's, and no element lost or doubled.
  const std::uint64_t n = 1000003;
  const Reference ref = reference_of_stream(77, Distribution::integers, 0, n);
  MultiGpuSum group(gpus());
  CHECK(double{sum_on(group, n, Distribution::integers, ref).total} == ref.sum);
}

TEST_CASE("a large N over every GPU matches one GPU", "[nccl][large]") {
  const std::uint64_t n = (std::uint64_t{1} << 30) + 3;
  const Reference ref = reference_of_stream(77, Distribution::uniform, 0, n);
  Sum multi, single;
  {
    MultiGpuSum group(gpus());  // scoped: frees its memory before the one-GPU run
    multi = sum_on(group, n, Distribution::uniform, ref);
  }
  {
    MultiGpuSum one(1);
    single = sum_on(one, n, Distribution::uniform, ref);
  }
  INFO("multi=" << multi.total << " single=" << single.total << " reference=" << ref.sum);
  CHECK(std::abs(multi.total - ref.sum) <= multi.tolerance);
  CHECK(std::abs(double{multi.total} - single.total) <= multi.tolerance + single.tolerance);
}

TEST_CASE("a lost block or GPU share cannot hide in the split: exact spikes", "[nccl][large]") {
  // A 1 at every 256th element of the whole input, 0 elsewhere: every GPU's share and every block's
  // holds spikes, and every partial sum is exact up to 2^32 elements. The rounding bound on uniform
  // data at these sizes is larger than a GPU's share; here the total must be exact.
  for (const std::uint64_t n : {(std::uint64_t{1} << 28) + 5, (std::uint64_t{1} << 31) + 17}) {
    const Reference ref = reference_of_stream(77, Distribution::spikes, 0, n);
    REQUIRE(ref.exact);
    MultiGpuSum group(gpus());
    const Sum multi = sum_on(group, n, Distribution::spikes, ref);
    INFO("n=" << n << " total=" << multi.total << " reference=" << ref.sum);
    CHECK(multi.tolerance == 0.0);
    CHECK(double{multi.total} == ref.sum);
  }
}

TEST_CASE("a GPU whose local reduction drops a block fails the exact spikes", "[nccl][large]") {
  // The same sizes with lesson 12's dropped-block plan on every GPU
  // (tests/lessons/dropped_block.h): each GPU's last block's share is lost, so the total is short
  // by whole spikes on every GPU's part, while the collective adds what it is given. The check
  // above must see it.
  const Plan dropped = test::dropped_block_plan<Backend::gpu>(11);
  for (const std::uint64_t n : {(std::uint64_t{1} << 28) + 5, (std::uint64_t{1} << 31) + 17}) {
    const Reference ref = reference_of_stream(77, Distribution::spikes, 0, n);
    MultiGpuSum group(gpus(), &dropped);
    const Sum multi = sum_on(group, n, Distribution::spikes, ref);
    INFO("n=" << n << " total=" << multi.total << " reference=" << ref.sum);
    CHECK(multi.tolerance == 0.0);
    CHECK(double{multi.total} < ref.sum);
    WARN(gpus() << " GPUs, each dropping one block, n=" << n << ": total " << multi.total
                << ", exactly " << ref.sum << ", short by " << ref.sum - multi.total);
  }
}

TEST_CASE("one process per GPU gives a verified total", "[nccl][processes]") {
  const std::string command =
      std::string(RL_LESSON22_EXE) + " --processes --n 1000003 --check-only";
  CHECK(std::system(command.c_str()) == 0);
}

int main(int argc, char** argv) {
  std::string why;
  const unsigned count = visible_gpus(&why);
  // a collective of one GPU tests nothing of the collective: skipped, never passed
  if (count < 2) {
    std::cout << "skipped: lesson 22's tests need two or more GPUs; "
              << (count == 0 ? why : std::string("only one is visible")) << '\n';
    return 77;
  }
  return rl::test::run_catch(argc, argv);
}

// Lesson 22 on two or more GPUs: the multi-GPU total matches the CPU reference and the one-GPU
// total, for N that does not divide, N smaller than the GPU count, N = 0 and a large N; every GPU
// holds the same total; on exact spikes every GPU's partial is its share's exact sum, on 2, 3, ...
// every visible GPU, and a local reduction that drops a block is caught at every size and group
// size tried; the one-process-per-GPU mode agrees. With fewer than two GPUs: exit 77.
#include <catch2/catch.hpp>

#include "tests/catch_run.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "common/host/reference.h"
#include "lessons/22_multi_gpu_nccl/multi_gpu.h"
#include "lessons/22_multi_gpu_nccl/split.h"
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

// The exact spikes of each GPU's share when n is split over k GPUs (split.h), each from the CPU
// reference of its own slice of the stream: what no GPU computed.
std::vector<Reference> share_references(std::uint64_t n, unsigned k) {
  std::vector<Reference> refs;
  for (const Share& s : split_evenly(n, k))
    refs.push_back(reference_of_stream(77, Distribution::spikes, s.first, s.count));
  return refs;
}

// The sizes of the exact-spike checks: odd, so the shares end part-way into a block, and the
// larger past 2^31, where a 32-bit element index would wrap.
constexpr std::uint64_t spike_sizes[] = {(std::uint64_t{1} << 28) + 5,
                                         (std::uint64_t{1} << 31) + 17};

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
  // data at these sizes is larger than a GPU's share; here the total must be exact, and so must
  // each GPU's partial, against its share's own reference: a lost share is short by at least 1.
  for (const std::uint64_t n : spike_sizes) {
    const Reference ref = reference_of_stream(77, Distribution::spikes, 0, n);
    REQUIRE(ref.exact);
    for (unsigned k = 2; k <= gpus(); ++k) {
      const std::vector<Reference> shares = share_references(n, k);
      MultiGpuSum group(k);
      const Sum multi = sum_on(group, n, Distribution::spikes, ref);
      const std::vector<float> partials = group.partials();
      INFO("k=" << k << " n=" << n << " total=" << multi.total << " reference=" << ref.sum);
      REQUIRE(partials.size() == k);
      double shares_sum = 0.0;
      for (unsigned r = 0; r < k; ++r) {
        INFO("GPU " << r << ": partial " << partials[r] << ", its share's exact sum "
                    << shares[r].sum);
        CHECK(shares[r].sum >= 1.0);  // so losing this share moves the total
        CHECK(double{partials[r]} == shares[r].sum);
        shares_sum += shares[r].sum;
      }
      CHECK(shares_sum == ref.sum);  // the shares cover the input once
      CHECK(multi.tolerance == 0.0);
      CHECK(double{multi.total} == ref.sum);
    }
  }
}

TEST_CASE("a GPU whose local reduction drops a block fails the exact spikes", "[nccl][large]") {
  // The same sizes and group sizes with lesson 12's dropped-block plan on every GPU
  // (tests/lessons/dropped_block.h: the single pass's last block adds every partial but its own):
  // each GPU's partial is short of its share's exact sum, the collective adds exactly what it is
  // given, so the total is short by whole spikes from every GPU, and the check of the test above
  // (the grader's, within_tolerance with tolerance 0) must reject it.
  const Plan dropped = test::dropped_block_plan<Backend::gpu>(12);
  for (const std::uint64_t n : spike_sizes) {
    const Reference ref = reference_of_stream(77, Distribution::spikes, 0, n);
    REQUIRE(ref.exact);
    for (unsigned k = 2; k <= gpus(); ++k) {
      const std::vector<Reference> shares = share_references(n, k);
      MultiGpuSum group(k, &dropped);
      const Sum multi = sum_on(group, n, Distribution::spikes, ref);
      const std::vector<float> partials = group.partials();
      INFO("k=" << k << " n=" << n << " total=" << multi.total << " reference=" << ref.sum);
      REQUIRE(partials.size() == k);
      double partials_sum = 0.0;
      for (unsigned r = 0; r < k; ++r) {
        INFO("GPU " << r << ": partial " << partials[r] << ", its share's exact sum "
                    << shares[r].sum);
        CHECK(partials[r] >= 0.0f);
        CHECK(std::floor(partials[r]) == partials[r]);  // whole spikes lost, nothing rounded
        CHECK(double{partials[r]} < shares[r].sum);     // this GPU lost its last block's share
        partials_sum += partials[r];
      }
      CHECK(double{multi.total} == partials_sum);
      CHECK(multi.tolerance == 0.0);
      CHECK(ref.sum - multi.total >= k);  // at least one spike from each GPU
      CHECK_FALSE(within_tolerance(multi.total, ref, group.depth()));
      WARN(k << " GPUs, each dropping one block, n=" << n << ": total " << multi.total
             << ", exactly " << ref.sum << ", short by " << ref.sum - multi.total);
    }
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

TEST_CASE("the exercise's reduce to a root leaves the total on that GPU only", "[nccl]") {
  // Each root in turn, on every visible GPU: the root holds the total within the rounding bound,
  // every other GPU the NaN run() wrote before the sum.
  const unsigned k = gpus();
  MultiGpuSum group(k);
  const std::uint64_t n = (std::uint64_t{1} << 24) + 3;
  group.prepare(n, 77, Distribution::uniform, 1024);
  const std::vector<float> everyone = group.run();
  const Reference ref = reference_of_stream(77, Distribution::uniform, 0, n);
  REQUIRE(within_tolerance(everyone.front(), ref, group.depth()));
  for (unsigned root = 0; root < k; ++root) {
    const std::vector<float> totals = group.run(static_cast<int>(root));
    REQUIRE(totals.size() == k);
    for (unsigned g = 0; g < k; ++g) {
      INFO("root " << root << ", GPU " << g << ": " << totals[g]);
      if (g == root)
        CHECK(within_tolerance(totals[g], ref, group.depth()));
      else
        CHECK(std::bit_cast<std::uint32_t>(totals[g]) == 0xFFFFFFFFu);
    }
  }
}

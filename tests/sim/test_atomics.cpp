#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

struct Targets {
  int isum;
  float fsum;
  double dsum;
  unsigned long long ullsum;
  int imax;
  int imin;
  unsigned umax;
  unsigned umin;
  long long llmax;
  unsigned long long ullmin;
  unsigned ticket;
  unsigned inc;
  unsigned dec;
  int cas_sum;
  unsigned long long cas_ull;
  unsigned usub;
  int isub;
};

__global__ void atomics_kernel(const int* vals, Targets* t, unsigned* tickets) {
  const unsigned long long g = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  const int v = vals[g];
  atomicAdd(&t->isum, v);
  atomicAdd(&t->fsum, static_cast<float>(v));
  atomicAdd(&t->dsum, static_cast<double>(v));
  atomicAdd(&t->ullsum, static_cast<unsigned long long>(v + 1000));
  atomicMax(&t->imax, v);
  atomicMin(&t->imin, v);
  atomicMax(&t->umax, static_cast<unsigned>(v + 1000) * 3u);
  atomicMin(&t->umin, static_cast<unsigned>(v + 1000) * 3u);
  atomicMax(&t->llmax, static_cast<long long>(v) * 1000003LL);
  atomicMin(&t->ullmin, static_cast<unsigned long long>(v + 1000) * 77777ULL);
  tickets[g] = atomicAdd(&t->ticket, 1u);
  atomicInc(&t->inc, 99u);
  atomicDec(&t->dec, 99u);
  atomicSub(&t->usub, 2u);
  atomicSub(&t->isub, v);
  // addition built from atomicCAS
  int old = atomicCAS(&t->cas_sum, 0, 0);
  int assumed;
  do {
    assumed = old;
    old = atomicCAS(&t->cas_sum, assumed, assumed + v);
  } while (old != assumed);
  unsigned long long o2 = atomicAdd(&t->cas_ull, 0ULL), a2;
  do {
    a2 = o2;
    o2 = atomicCAS(&t->cas_ull, a2, a2 + static_cast<unsigned long long>(v + 1000));
  } while (o2 != a2);
}

__global__ void exch_kernel(unsigned* slot, unsigned* seen) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  seen[g] = atomicExch(slot, g + 1);
}

}  // namespace

TEST_CASE("atomics from many blocks on two host threads give the exact result", "[atomics]") {
  constexpr unsigned grid = 64, block = 128, n = grid * block;
  std::mt19937 rng(2024);
  std::vector<int> vals(n);
  for (auto& v : vals) v = static_cast<int>(rng() % 2001) - 1000;

  // Independent scalar model.
  Targets want{};
  want.imax = -1000000;
  want.imin = 1000000;
  want.umax = 0;
  want.umin = ~0u;
  want.llmax = -(1LL << 62);
  want.ullmin = ~0ULL;
  want.usub = 100000;
  Targets init = want;
  for (int v : vals) {
    want.isum += v;
    want.fsum += static_cast<float>(v);
    want.dsum += v;
    want.ullsum += static_cast<unsigned long long>(v + 1000);
    want.imax = std::max(want.imax, v);
    want.imin = std::min(want.imin, v);
    want.umax = std::max(want.umax, static_cast<unsigned>(v + 1000) * 3u);
    want.umin = std::min(want.umin, static_cast<unsigned>(v + 1000) * 3u);
    want.llmax = std::max(want.llmax, static_cast<long long>(v) * 1000003LL);
    want.ullmin = std::min(want.ullmin, static_cast<unsigned long long>(v + 1000) * 77777ULL);
    want.inc = want.inc >= 99u ? 0u : want.inc + 1;
    want.dec = (want.dec == 0 || want.dec > 99u) ? 99u : want.dec - 1;
    want.usub -= 2u;
    want.isub -= v;
    want.cas_sum += v;
    want.cas_ull += static_cast<unsigned long long>(v + 1000);
  }
  want.ticket = n;

  for (const auto& opts : {simtest::make_options(rl::sim::Schedule::lane_order, 1, 2),
                           simtest::make_options(rl::sim::Schedule::shuffled, 3, 2)}) {
    simtest::ScopedOptions scoped(opts);
    Targets t = init;
    std::vector<unsigned> tickets(n, 0);
    rl::sim::launch("atomics_kernel", atomics_kernel, dim3(grid), dim3(block), 0, vals.data(), &t,
                    tickets.data());
    CHECK(t.isum == want.isum);
    CHECK(t.fsum == want.fsum);  // integer-valued, |partial sums| < 2^24: exact
    CHECK(t.dsum == want.dsum);
    CHECK(t.ullsum == want.ullsum);
    CHECK(t.imax == want.imax);
    CHECK(t.imin == want.imin);
    CHECK(t.umax == want.umax);
    CHECK(t.umin == want.umin);
    CHECK(t.llmax == want.llmax);
    CHECK(t.ullmin == want.ullmin);
    CHECK(t.ticket == want.ticket);
    CHECK(t.inc == want.inc);
    CHECK(t.dec == want.dec);
    CHECK(t.usub == want.usub);
    CHECK(t.isub == want.isub);
    CHECK(t.cas_sum == want.cas_sum);
    CHECK(t.cas_ull == want.cas_ull);
    std::sort(tickets.begin(), tickets.end());  // every old value handed out once
    bool permutation = true;
    for (unsigned i = 0; i < n; ++i) permutation = permutation && tickets[i] == i;
    CHECK(permutation);
  }
}

TEST_CASE("atomicExch hands every previous value to exactly one thread", "[atomics]") {
  constexpr unsigned grid = 16, block = 64, n = grid * block;
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 2));
  unsigned slot = 0;
  std::vector<unsigned> seen(n, 12345u);
  rl::sim::launch("exch_kernel", exch_kernel, dim3(grid), dim3(block), 0, &slot, seen.data());
  // The values written are 1..n; the initial 0 plus all of them but the final one were seen.
  seen.push_back(slot);
  std::sort(seen.begin(), seen.end());
  for (unsigned i = 0; i <= n; ++i) CHECK(seen[i] == i);
}

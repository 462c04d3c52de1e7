// `reducelab timeline` turns CUPTI's activity records into each call's launch latency, activities,
// gaps and host time (common/host/timeline_calls.h). Here on synthetic records whose figures are
// known by construction: lesson 10's host-finish variant (a kernel, a copy back, the CPU's
// additions, a copy in), and a library that calls the driver itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "common/host/timeline_calls.h"

using namespace rl;

namespace {

using Kind = DeviceRecord::Kind;

// One host_finish call starting at t (ns): every figure below is a difference of these numbers.
//   API:    cudaLaunchKernel [t, t+3000], cudaGetLastError [t+3100, t+3200],
//           cudaMemcpyAsync [t+3300, t+4000], cudaStreamSynchronize [t+4100, t+12000],
//           (host adds the partials: t+12000 .. t+14000)
//           cudaMemcpyAsync [t+14000, t+15000], cudaStreamSynchronize [t+15100, t+19000]
//   device: block_partials [t+5000, t+9000], memcpy DtoH [t+10000, t+11000],
//           memcpy HtoD [t+16000, t+17500]
CallRecords host_finish_call(std::uint64_t t, std::uint64_t kernel_ns = 4000) {
  return {{{"cudaLaunchKernel", t, t + 3000},
           {"cudaGetLastError", t + 3100, t + 3200},
           {"cudaMemcpyAsync", t + 3300, t + 4000},
           {"cudaStreamSynchronize", t + 4100, t + 12000},
           {"cudaMemcpyAsync", t + 14000, t + 15000},
           {"cudaStreamSynchronize", t + 15100, t + 19000}},
          {{Kind::kernel, "block_partials<256, NoTrace>", t + 5000, t + 5000 + kernel_ns},
           {Kind::memcpy, "memcpy DtoH", t + 10000, t + 11000, 4224},
           {Kind::memcpy, "memcpy HtoD", t + 16000, t + 17500, 4}}};
}

}  // namespace

TEST_CASE("one call broken down: latency, activities, gaps, host code", "[timeline]") {
  const CallBreakdown b = break_down(host_finish_call(1'000'000));
  CHECK(b.first_api_to_first_kernel_us == Approx(5.0));
  CHECK(b.total_us == Approx(17.5));      // to the HtoD copy's end
  CHECK(b.host_wall_us == Approx(19.0));  // to the last synchronize's return
  // Outside API calls: 100 + 100 + 100 ns between calls, the CPU's 2000 ns, then 100 ns.
  CHECK(b.host_us == Approx(2.4));
  REQUIRE(b.kinds.size() == 3);
  CHECK(b.kinds[0] == Kind::kernel);
  CHECK(b.names[0] == "block_partials<256, NoTrace>");
  CHECK(b.kinds[2] == Kind::memcpy);
  CHECK(b.names[2] == "memcpy HtoD");
  REQUIRE(b.activity_us.size() == 3);
  CHECK(b.activity_us[0] == Approx(4.0));
  CHECK(b.activity_us[1] == Approx(1.0));
  CHECK(b.activity_us[2] == Approx(1.5));
  REQUIRE(b.gaps_us.size() == 2);
  CHECK(b.gaps_us[0] == Approx(1.0));  // kernel end 9000 -> copy back 10000
  CHECK(b.gaps_us[1] == Approx(5.0));  // copy back end 11000 -> copy in 16000: the host's part
  REQUIRE(b.api_names.size() == 4);
  CHECK(b.api_names[2] == "cudaMemcpyAsync");
  CHECK(b.api_calls[2] == 2);
  CHECK(b.api_us[2] == Approx(0.7 + 1.0));
}

TEST_CASE("records are split into calls by the host's windows; others are dropped", "[timeline]") {
  std::vector<ApiRecord> api;
  std::vector<DeviceRecord> device;
  std::vector<CallWindow> windows;
  for (std::uint64_t call = 0; call < 3; ++call) {
    const std::uint64_t t = 1'000'000 + call * 100'000;
    auto r = host_finish_call(t);
    api.insert(api.end(), r.api.rbegin(), r.api.rend());  // out of order, as buffers may be
    device.insert(device.end(), r.device.begin(), r.device.end());
    windows.push_back({t - 10, t + 20'000});
  }
  // A warm-up call before the first window and a stray copy between windows are not any call's.
  api.push_back({"cudaLaunchKernel", 500'000, 503'000});
  device.push_back({Kind::kernel, "warmup", 505'000, 506'000});
  device.push_back({Kind::memcpy, "memcpy DtoD", 1'050'000, 1'051'000});
  const auto calls = split_into_calls(api, device, windows);
  REQUIRE(calls.size() == 3);
  for (const auto& c : calls) {
    CHECK(c.api.size() == 6);
    CHECK(c.device.size() == 3);
    CHECK(c.api.front().name == "cudaLaunchKernel");  // sorted by start again
    CHECK(c.device.front().name == "block_partials<256, NoTrace>");
  }
  CHECK(calls[1].api.front().start == 1'100'000);
}

TEST_CASE("medians over calls; the activities of the most common sequence", "[timeline]") {
  std::vector<CallBreakdown> calls;
  // Kernel durations 3, 4, 5, 6, 40 us: the median is 5, whatever the outlier.
  for (std::uint64_t k : {3000, 4000, 5000, 6000, 40000})
    calls.push_back(break_down(host_finish_call(1'000'000, k)));
  // One call with an extra memset: a different sequence, left out of the per-activity medians.
  auto odd = host_finish_call(1'000'000);
  odd.device.insert(odd.device.begin(), {Kind::memset, "memset", 1'004'000, 1'004'500, 4});
  calls.push_back(break_down(odd));

  const auto e = timeline_entry({10, "multi_block_two_kernel", "host_finish", 1024, 256}, calls);
  CHECK(e["calls"] == 6);
  CHECK(e["calls_like_median"] == 5);
  CHECK(e["variant"] == "host_finish");
  REQUIRE(e["activities"].size() == 3);
  CHECK(e["activities"][0]["kind"] == "kernel");
  CHECK(e["activities"][0]["name"] == "block_partials<256, NoTrace>");
  CHECK(e["activities"][0]["us"].get<double>() == Approx(5.0));
  CHECK(e["activities"][1]["name"] == "memcpy DtoH");
  // Gap kernel -> copy back: 10000 - (5000 + k) ns for k = 3..6, 40 us (negative: overlapping
  // in this synthetic call) -> median of {2, 1, 0, -1, -35} = 0.
  CHECK(e["gaps_us"][0].get<double>() == Approx(0.0).margin(1e-9));
  CHECK(e["gaps_us"][1].get<double>() == Approx(5.0));
  CHECK(e["first_api_to_first_kernel_us"].get<double>() == Approx(5.0));
  CHECK(e["host_us"].get<double>() == Approx(2.4));
  CHECK(e["api"][3]["name"] == "cudaStreamSynchronize");
  CHECK(e["api"][3]["calls"] == 2);

  const auto doc = timeline_document({{"name", "test GPU"}}, "CUPTI API version 1", {}, {e});
  std::ostringstream out;
  print_timeline_table(out, doc);
  const std::string table = out.str();
  CHECK(table.find("| lesson | variant ") == 0);
  CHECK(table.find("| 10     | host_finish | 256   | 2^10 | 5.00 us") != std::string::npos);
  CHECK(table.find("block_partials 5.00; memcpy DtoH 1.00; memcpy HtoD 1.50") != std::string::npos);
  CHECK(table.find("| 0.00; 5.00 ") != std::string::npos);
  CHECK(table.find("| 6         |") != std::string::npos);  // API calls in one call
  CHECK_THROWS_WITH(print_timeline_table(out, nlohmann::json::object()),
                    Catch::Contains("not a reducelab.timeline record"));
}

TEST_CASE("driver calls inside runtime calls are the runtime's; a library's own count",
          "[timeline]") {
  CallRecords c = host_finish_call(1'000'000);
  c.api.insert(c.api.begin() + 1, {"cuLaunchKernel", 1'000'500, 1'002'500, true});  // nested
  // A library calling the driver directly, before its first runtime call.
  c.api.insert(c.api.begin(), {"cuLibraryGetKernel", 999'000, 999'600, true});
  const CallBreakdown b = break_down(c);
  CHECK(b.api_names.front() == "cuLibraryGetKernel");
  CHECK(std::find(b.api_names.begin(), b.api_names.end(), "cuLaunchKernel") == b.api_names.end());
  CHECK(b.first_api_to_first_kernel_us == Approx(6.0));  // from 999'000 to 1'005'000
  CHECK(b.host_us == Approx(2.8));                       // 0.4 more before cudaLaunchKernel
}

TEST_CASE("a call without an API record or without a kernel is an error", "[timeline]") {
  CallRecords c = host_finish_call(0);
  c.api.clear();
  CHECK_THROWS_WITH(break_down(c), Catch::Contains("no API record"));
  c = host_finish_call(0);
  c.device.erase(c.device.begin());
  CHECK_THROWS_WITH(break_down(c), Catch::Contains("no kernel"));
  CHECK_THROWS(timeline_entry({}, {}));
}

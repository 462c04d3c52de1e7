// `reducelab profile` reads Nsight Compute's CSV: the parser and the record maker, on ncu's own
// output from the H100 (tests/host/fixtures: lesson 02 at 2^20, three launches; lesson 12 at 2^20,
// two plans of one launch each). Each expected value is read from the fixture by the test itself,
// with a split of its own, so the parser is checked against the file and not against itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/host/kernel_name.h"
#include "common/host/ncu_csv.h"
#include "common/host/profile_record.h"

using namespace rl;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RL_FIXTURES_DIR) + "/" + name);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The test's own reading of one value: the header line split at "," (every field is quoted), the
// column found by name, the value in data row `row` (after the units row), separators removed.
double value_in(const std::string& text, const std::string& metric, std::size_t row) {
  std::vector<std::vector<std::string>> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (lines.empty() && line.rfind("\"ID\"", 0) != 0) continue;
    std::vector<std::string> fields;
    line = line.substr(1, line.size() - 2);  // the outer quotes
    for (std::size_t at = 0;;) {
      const std::size_t next = line.find("\",\"", at);
      fields.push_back(line.substr(at, next - at));
      if (next == std::string::npos) break;
      at = next + 3;
    }
    lines.push_back(fields);
  }
  const auto& header = lines.at(0);
  const auto column = std::find(header.begin(), header.end(), metric) - header.begin();
  REQUIRE(column < static_cast<long>(header.size()));
  std::string digits;
  for (char c : lines.at(2 + row).at(static_cast<std::size_t>(column)))
    if (c != ',') digits += c;
  return std::stod(digits);
}

ProfiledCall lesson02() { return {2, "interleaved_strided", "", 1u << 20, 256}; }

}  // namespace

TEST_CASE("ncu values: thousands separators, decimals, n/a", "[profile]") {
  CHECK(parse_ncu_number("4,197,632") == 4197632.0);
  CHECK(parse_ncu_number("11.59") == Approx(11.59));
  CHECK(parse_ncu_number("0") == 0.0);
  CHECK_FALSE(parse_ncu_number("n/a"));
  CHECK_FALSE(parse_ncu_number(""));
  CHECK_THROWS_WITH(parse_ncu_number("PolicySpread"),
                    Catch::Contains("'PolicySpread' is not a number"));
  CHECK(to_microseconds(10848, "ns") == Approx(10.848));
  CHECK(to_microseconds(2, "msecond") == Approx(2000));
  CHECK_THROWS(to_microseconds(1, "cycle"));
}

TEST_CASE("CSV lines: quoted commas and doubled quotes", "[profile]") {
  const auto f = split_csv_line(R"("a","4,096","say ""hi""",,"")");
  REQUIRE(f.size() == 5);
  CHECK(f[0] == "a");
  CHECK(f[1] == "4,096");
  CHECK(f[2] == "say \"hi\"");
  CHECK(f[3].empty());
  CHECK(f[4].empty());
  CHECK_THROWS_WITH(split_csv_line("\"open"), Catch::Contains("not closed"));
}

TEST_CASE("ncu's CSV: the program's output skipped, header, units, one row per launch",
          "[profile]") {
  const std::string text = fixture("ncu-02_interleaved_strided.csv");
  const NcuTable t = parse_ncu_csv(text);
  REQUIRE(t.rows.size() == 3);
  REQUIRE(t.units.size() == t.names.size());
  CHECK(t.names[0] == "ID");
  const auto bytes = t.column("dram__bytes_read.sum");
  REQUIRE(bytes);
  CHECK(t.units[*bytes] == "byte");
  CHECK(t.units[*t.column("gpu__time_duration.sum")] == "ns");
  CHECK(t.rows[0][*bytes] == "4,197,632");
  CHECK(t.rows[2][0] == "2");
  CHECK_FALSE(t.column("no__such_metric"));
}

TEST_CASE("ncu's CSV: no table, or a short row, is an error that says so", "[profile]") {
  CHECK_THROWS_WITH(parse_ncu_csv("==PROF== Connected\n==WARNING== No kernels were profiled.\n"),
                    Catch::Contains("printed no CSV table"));
  CHECK_THROWS_WITH(parse_ncu_csv("\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"0\"\n"),
                    Catch::Contains("line 3 has 1 fields, the header 2"));
}

TEST_CASE("lesson 02's three launches become three records with ncu's values", "[profile]") {
  const std::string text = fixture("ncu-02_interleaved_strided.csv");
  const auto records = profile_records(parse_ncu_csv(text), lesson02());
  REQUIRE(records.size() == 3);
  const auto& first = records[0];
  CHECK(first["lesson"] == 2);
  CHECK(first["slug"] == "interleaved_strided");
  CHECK(first["variant"] == "");
  CHECK(first["n"] == 1048576);
  CHECK(first["block"] == 256);
  CHECK(first["launch"] == 0);
  CHECK(first["kernel"] == "interleaved_strided<NoTrace>");
  // The tree passes shrink the grid: 2^20 / 256 blocks, then 4096 / 256, then one.
  CHECK(first["grid"] == 4096);
  CHECK(records[1]["grid"] == 16);
  CHECK(records[2]["grid"] == 1);
  CHECK(records[2]["launch"] == 2);
  CHECK(first["block_threads"] == 256);

  const auto& c = first["counters"];
  CHECK(c["duration_us"].get<double>() ==
        Approx(value_in(text, "gpu__time_duration.sum", 0) / 1e3));
  CHECK(c["dram_bytes_read"] == 4197632);
  CHECK(c["dram_bytes_read"].get<double>() == value_in(text, "dram__bytes_read.sum", 0));
  CHECK(c["dram_pct_of_peak"].get<double>() ==
        Approx(value_in(text, "dram__throughput.avg.pct_of_peak_sustained_elapsed", 0)));
  CHECK(c["achieved_occupancy_pct"].get<double>() ==
        Approx(value_in(text, "sm__warps_active.avg.pct_of_peak_sustained_active", 0)));
  CHECK(c["theoretical_occupancy_pct"].get<double>() == 100.0);
  CHECK(c["registers_per_thread"] == 16);
  CHECK(c["threads_per_instruction"].get<double>() == Approx(31.69));
  CHECK(c["instructions"] == 4567040);

  // Bank conflicts per request: 292,533 conflicts over 528,384 shared loads.
  const double ld_conflicts =
      value_in(text, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0);
  const double ld_requests = value_in(text, "smsp__inst_executed_op_shared_ld.sum", 0);
  CHECK(ld_conflicts == 292533);
  CHECK(ld_requests == 528384);
  CHECK(c["shared_ld_bank_conflicts"] == 292533);
  CHECK(c["shared_ld_requests"] == 528384);
  CHECK(c["shared_ld_conflicts_per_request"].get<double>() == Approx(ld_conflicts / ld_requests));
  CHECK(c["shared_st_conflicts_per_request"].get<double>() ==
        Approx(value_in(text, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0) /
               value_in(text, "smsp__inst_executed_op_shared_st.sum", 0)));
  CHECK(c["shared_ld_wavefronts_per_request"].get<double>() ==
        Approx(value_in(text, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0) /
               ld_requests));

  // Block limits 16 (registers), 16 (shared memory), 32 (blocks), 8 (warps): the warps limit.
  CHECK(c["blocks_per_sm_limit"]["registers"] == 16);
  CHECK(c["blocks_per_sm_limit"]["shared_mem"] == 16);
  CHECK(c["blocks_per_sm_limit"]["blocks"] == 32);
  CHECK(c["blocks_per_sm_limit"]["warps"] == 8);
  CHECK(c["occupancy_limiter"] == "warps");

  // Stalls in the fixture's first row: short_scoreboard 5.87, long_scoreboard 4.05, barrier 3.16,
  // wait 2.81, mio_throttle 1.33, ... (the probe asked for seven of the seventeen reasons).
  const auto& top = c["top_stalls"];
  REQUIRE(top.size() == 3);
  CHECK(top[0]["reason"] == "short_scoreboard");
  CHECK(top[0]["warps_per_issue"].get<double>() ==
        Approx(value_in(
            text, "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", 0)));
  CHECK(top[1]["reason"] == "long_scoreboard");
  CHECK(top[2]["reason"] == "barrier");
}

TEST_CASE("a metric ncu did not print is null, and named as missing", "[profile]") {
  const NcuTable t = parse_ncu_csv(fixture("ncu-02_interleaved_strided.csv"));
  const auto missing = missing_metrics(t);
  // The probe lacked ten of the stall reasons, and the predicated-on threads per instruction (added
  // to the record after it); everything else the record reads is there.
  CHECK(missing.size() == 11);
  CHECK(std::find(missing.begin(), missing.end(),
                  "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio") != missing.end());
  CHECK(std::find(missing.begin(), missing.end(),
                  "smsp__average_warps_issue_stalled_misc_per_issue_active.ratio") !=
        missing.end());
  NcuTable without = t;
  const auto col = *without.column("dram__bytes_read.sum");
  without.names[col] = "renamed";
  const auto r = profile_records(without, lesson02());
  CHECK(r[0]["counters"]["dram_bytes_read"].is_null());
  CHECK(r[0]["counters"]["shared_ld_requests"] == 528384);
}

TEST_CASE("lesson 12's two plans: one launch each, a tie of limits named in a fixed order",
          "[profile]") {
  const std::string text = fixture("ncu-12_single_pass.csv");
  const auto records =
      profile_records(parse_ncu_csv(text), {11, "single_pass", "", 1u << 20, 1024});
  REQUIRE(records.size() == 2);
  CHECK(records[0]["kernel"] == "single_pass<1024, 4, 0, NoTrace>");
  CHECK(records[1]["kernel"] == "single_pass_atomic<1024, NoTrace>");
  CHECK(records[0]["grid"] == 64);
  CHECK(records[0]["block_threads"] == 1024);
  const auto& c = records[0]["counters"];
  // Registers and warps both allow 2 blocks of 1024 threads: registers come first in the order.
  CHECK(c["blocks_per_sm_limit"]["registers"] == 2);
  CHECK(c["blocks_per_sm_limit"]["warps"] == 2);
  CHECK(c["occupancy_limiter"] == "registers");
  // No shared-memory conflicts in this kernel; ld wavefronts equal requests (2,113 each).
  CHECK(c["shared_ld_conflicts_per_request"].get<double>() == 0.0);
  CHECK(c["shared_ld_wavefronts_per_request"].get<double>() == 1.0);
  CHECK(c["duration_us"].get<double>() == Approx(6.816));
  CHECK(c["top_stalls"][0]["reason"] == "barrier");  // 10.64, above long_scoreboard's 10.20
  CHECK(records[1]["counters"]["top_stalls"][0]["reason"] == "long_scoreboard");
}

TEST_CASE("the record and its table", "[profile]") {
  const auto kernels =
      profile_records(parse_ncu_csv(fixture("ncu-02_interleaved_strided.csv")), lesson02());
  const nlohmann::json device = {{"name", "NVIDIA H100 80GB HBM3"}};
  const auto doc = profile_document(device, "ncu 2025.3.0.0", "--csv", kernels);
  CHECK(doc["schema"] == "reducelab.profile");
  CHECK(doc["version"] == 1);
  CHECK(doc["device"]["name"] == "NVIDIA H100 80GB HBM3");
  CHECK(doc["metrics"]["dram_pct_of_peak"] == "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  CHECK(doc["metrics"]["blocks_per_sm_limit.warps"] == "launch__occupancy_limit_warps");
  CHECK(doc["kernels"].size() == 3);
  // Every metric asked of ncu is one the record names.
  const std::string map = doc["metrics"].dump();
  for (const auto& m : profile_metric_names())
    if (m.find("stalled") == std::string::npos) CHECK(map.find(m) != std::string::npos);

  std::ostringstream out;
  print_profile_table(out, doc);
  const std::string table = out.str();
  CHECK(table.find("| lesson | variant | n ") == 0);
  // 292533 / 528384 = 0.55 conflicts per load, 143360 / 294912 = 0.49 per store.
  CHECK(table.find("| 02     | -       | 2^20 | #0 interleaved_strided | 4096 x 256   | "
                   "10.85 us | 11.6   | 84.1 of 100 ") != std::string::npos);
  CHECK(table.find("| warps (8) ") != std::string::npos);
  CHECK(table.find("| 0.55 / 0.49 ") != std::string::npos);
  CHECK(table.find("| short_scoreboard 5.9 ") != std::string::npos);
  CHECK(table.find("#2 interleaved_strided | 1 x 256") != std::string::npos);

  CHECK_THROWS_WITH(print_profile_table(out, nlohmann::json{{"schema", "reducelab.results"}}),
                    Catch::Contains("not a reducelab.profile record"));
  auto later = doc;
  later["version"] = 2;
  CHECK_THROWS_WITH(print_profile_table(out, later), Catch::Contains("version 2"));
}

TEST_CASE("kernel names: return type and arguments dropped, identifiers", "[profile]") {
  CHECK(
      kernel_without_arguments(
          "void interleaved_strided<NoTrace>(Global<const float>, Global<float>, unsigned long)") ==
      "interleaved_strided<NoTrace>");
  CHECK(kernel_without_arguments("void (anonymous namespace)::k<(bool)1>(int (*)(int))") ==
        "(anonymous namespace)::k<(bool)1>");
  CHECK(kernel_without_arguments("plain_name") == "plain_name");
  CHECK(kernel_identifier("void cub::CUB_300000_SM_900::detail::reduce::DeviceReduceKernel<"
                          "cub::Policy<float, cuda::std::plus<void>>, const float *>(T2, T3)") ==
        "DeviceReduceKernel");
  CHECK(kernel_identifier("single_pass<1024, 4, 0, NoTrace>") == "single_pass");
  CHECK(demangle("_Z3fooi") == "foo(int)");
  CHECK(demangle("not_mangled") == "not_mangled");
  CHECK(size_label(1u << 20) == "2^20");
  CHECK(size_label(1000) == "1000");
}

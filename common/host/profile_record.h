#pragma once
// The profile record (schema reducelab.profile, common/PROFILE.md): what Nsight Compute measured of
// each kernel launch of one reduction call, per lesson, variant, size and block. The metric list
// asked of ncu, the record made from its CSV (ncu_csv.h), and the table printed from a record.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/ncu_csv.h"

namespace rl {

inline constexpr int profile_schema_version = 1;

// The metrics `reducelab profile` asks ncu for (--metrics), in the order of the record's keys.
std::vector<std::string> profile_metric_names();

// The record's "metrics" object: each counter's key -> the ncu metric (or formula) it comes from.
nlohmann::json profile_metric_map();

// The reduction call a CSV table is of: one plan at one size and block.
struct ProfiledCall {
  int lesson = 0;
  std::string slug;
  std::string variant;  // "" for the lesson's own kernel
  std::uint64_t n = 0;
  unsigned block = 0;
};

// One record per row of `table` (one per kernel launch, in launch order) of one reduction call. A
// metric ncu did not print is null; throws std::runtime_error where the kernel name or a unit is
// not what the record needs.
std::vector<nlohmann::json> profile_records(const NcuTable& table, const ProfiledCall& call);

// The metrics of profile_metric_names() that `table` lacks (ncu printed no column for them).
std::vector<std::string> missing_metrics(const NcuTable& table);

// The whole document: schema, version, created_utc, tool ("ncu <version>"), ncu's options,
// device (as the results record's), metrics, kernels.
nlohmann::json profile_document(const nlohmann::json& device, const std::string& tool,
                                const std::string& ncu_options,
                                const std::vector<nlohmann::json>& kernels);

// Throws std::runtime_error unless `doc` is a reducelab.profile record of this version.
void check_profile_document(const nlohmann::json& doc);

// lesson | variant | n | kernel (#launch identifier) | grid x block | time | DRAM % | occupancy %
// (achieved of theoretical) | limiter (blocks/SM) | conflicts/request ld / st | threads/inst |
// top stall (warps/issue): one row per kernel record.
void print_profile_table(std::ostream& out, const nlohmann::json& doc);

// "2^20" for a power of two, else the number.
std::string size_label(std::uint64_t n);

// "03" for lesson 3, as the lessons' folders name them.
std::string lesson_label(int lesson);

}  // namespace rl

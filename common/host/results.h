#pragma once
// The results record: every measured case as JSON, in the versioned schema documented in
// common/RESULTS.md. The viewer plots these files; the runner writes them.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/session.h"

namespace rl {

inline constexpr int results_schema_version = 1;

// Now, as the records' "created_utc": "2026-11-22T16:40:00Z".
std::string utc_now();

// A committed file of the course's assets (assets/RELATIVE: results, traces): by that relative path
// from the source tree's root where the program runs there, else by its path in the source tree this
// build came from.
std::string committed_asset_path(const std::string& relative);

nlohmann::json to_json(const CaseResult& r, const RunOptions& o, const Baseline* baseline);
nlohmann::json to_json(const Baseline& b);
// A timing: median, min and max in ms, samples, calls per sample, simulated or not.
nlohmann::json to_json(const Timing& t);
nlohmann::json to_json(const Summary& device_ms);  // a device time

// The whole document: schema, version, device, backend, runs and per-size baselines.
nlohmann::json results_document(Device& device, const RunOptions& o,
                                const std::vector<nlohmann::json>& runs,
                                const std::vector<nlohmann::json>& baselines);

// The head of a lesson table's record (lessons 18-21: reducelab.ops, .matrix, .axes): schema,
// version, backend, device, seed, and how the times were taken. The lesson adds "runs" and its own.
nlohmann::json table_record(const std::string& schema, Device& device, std::uint64_t seed,
                            unsigned samples);

// Writes `doc` to `path` (pretty-printed); throws UsageError naming the option the path came from
// ("--json", "--trace") and the path when it cannot. Programs check the path before their work
// starts (check_output_path, cli.h), so this fails only when something changed meanwhile.
void write_json_file(const std::string& path, const nlohmann::json& doc,
                     const std::string& option = "--json");

}  // namespace rl

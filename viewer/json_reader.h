#pragma once
// Reading the viewer's JSON records (results, profiles) field by field, with every refusal one line
// naming the file and the field: "r.json: run 3: n must be a finite number". No ImGui here.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "viewer/results_model.h"  // ResultsError

namespace rl::viewer {

struct JsonReader {
  std::string name;  // the file, first on every refusal

  [[noreturn]] void fail(const std::string& what) const;  // throws ResultsError

  // The text as JSON: at most 256 MiB and 64 levels deep, checked before the parser sees it.
  nlohmann::json parse(std::string_view text) const;
  // `schema` must be `schema` and `version` the integer 1.
  void expect_schema(const nlohmann::json& doc, const std::string& schema) const;

  const nlohmann::json& need(const nlohmann::json& o, const char* key,
                             const std::string& where) const;
  std::string str(const nlohmann::json& o, const char* key, const std::string& where) const;
  std::string str_or(const nlohmann::json& o, const char* key, const std::string& fallback) const;
  double num(const nlohmann::json& o, const char* key, const std::string& where) const;
  // A whole number in [lo, hi].
  std::int64_t integer(const nlohmann::json& o, const char* key, const std::string& where,
                       std::int64_t lo, std::int64_t hi) const;
  // Absent or null: none; otherwise a finite number.
  std::optional<double> opt(const nlohmann::json& o, const char* key,
                            const std::string& where) const;
};

// The text of a file, or a one-line refusal (no such file, not a regular file, cannot open it).
std::string read_record(const std::string& path);

}  // namespace rl::viewer

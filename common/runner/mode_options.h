#pragma once
// What the runner's profiling modes (`profile`, `timeline`) share on the command line: lists of
// sizes and of lessons, checked as they are read, and the record that --from names.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/plan.h"

namespace rl {

// "2^20,2^24" -> {1048576, 16777216}: each a size as --n takes it, from 1 to 2^34. Throws
// UsageError naming `option` and the value that is wrong.
std::vector<std::uint64_t> parse_size_list(const std::string& text, std::string_view option);

// "7,10,12" -> {7, 10, 12}: each a lesson that has plans in `plans`. Throws UsageError.
std::vector<int> parse_lesson_list(const std::string& text, std::string_view option,
                                   const Plans& plans);

// "lesson 10 host_finish", "lesson 03": a plan in progress lines and failures.
std::string plan_label(const Plan& p);

// The JSON file given to `option`; throws UsageError (one line) where it cannot be read or parsed.
nlohmann::json read_json_option(const std::string& path, std::string_view option);

}  // namespace rl

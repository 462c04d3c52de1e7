#include "common/runner/mode_options.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/host/cli.h"
#include "common/host/profile_record.h"  // lesson_label

namespace rl {
namespace {

// The comma-separated items of `text`; an empty item is an error.
std::vector<std::string> items(const std::string& text, std::string_view option) {
  if (text.empty())
    throw UsageError(std::string(option) + " needs a value (it was given an empty one)");
  std::vector<std::string> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    out.push_back(text.substr(from, comma - from));
    if (out.back().empty())
      throw UsageError(std::string(option) + " has an empty item (got '" + text + "')");
    if (comma == std::string::npos) return out;
    from = comma + 1;
  }
}

}  // namespace

std::vector<std::uint64_t> parse_size_list(const std::string& text, std::string_view option) {
  std::vector<std::uint64_t> sizes;
  for (const auto& item : items(text, option)) {
    const std::uint64_t n = parse_count(item, option, std::uint64_t{1} << 34);
    if (n == 0) throw UsageError(std::string(option) + " must be at least 1 (got 0)");
    sizes.push_back(n);
  }
  return sizes;
}

std::vector<int> parse_lesson_list(const std::string& text, std::string_view option,
                                   const Plans& plans) {
  std::vector<int> lessons;
  for (const auto& item : items(text, option)) {
    const auto lesson = static_cast<int>(parse_count(item, option, 99));
    if (std::none_of(plans.begin(), plans.end(), [&](const Plan& p) { return p.lesson == lesson; }))
      throw UsageError(std::string(option) + ": lesson " + item + " has no kernel to run here");
    lessons.push_back(lesson);
  }
  return lessons;
}

std::string plan_label(const Plan& p) {
  std::string label = "lesson ";
  label += lesson_label(p.lesson);
  if (!p.variant.empty()) label.append(" ").append(p.variant);
  return label;
}

nlohmann::json read_json_option(const std::string& path, std::string_view option) {
  std::ifstream in(path);
  if (!in)
    throw UsageError(std::string(option) + ": cannot read '" + path + "' (" + std::strerror(errno) +
                     ")");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error&) {
    throw UsageError(std::string(option) + ": '" + path + "' is not JSON");
  }
}

}  // namespace rl

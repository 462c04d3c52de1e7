#include "common/host/hints.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <vector>

#include "common/host/cli.h"

namespace rl {
namespace {

// The offsets where each "## Hint K" heading line starts, in order of K as written.
std::vector<std::size_t> headings(std::string_view text) {
  std::vector<std::size_t> at;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = text.find('\n', pos);
    const std::string_view line = text.substr(pos, end == std::string_view::npos ? text.size() - pos : end - pos);
    if (line.starts_with("## Hint ")) at.push_back(pos);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return at;
}

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

std::string hints_path(int number) {
  char prefix[8];
  std::snprintf(prefix, sizeof prefix, "%02d_", number);
  const std::filesystem::path lessons = std::filesystem::path(RL_SOURCE_DIR) / "lessons";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(lessons, ec))
    if (entry.is_directory() && entry.path().filename().string().starts_with(prefix))
      return (entry.path() / "exercise" / "HINTS.md").string();
  return (lessons / (std::string(prefix) + "*") / "exercise" / "HINTS.md").string();  // named in the error
}

unsigned hint_count(std::string_view markdown) { return static_cast<unsigned>(headings(markdown).size()); }

std::optional<std::string> hint_text(std::string_view markdown, unsigned k) {
  const auto at = headings(markdown);
  if (k == 0 || k > at.size()) return std::nullopt;
  const std::size_t body = markdown.find('\n', at[k - 1]);
  if (body == std::string_view::npos) return std::string();
  const std::size_t end = k < at.size() ? at[k] : markdown.size();
  return trimmed(markdown.substr(body + 1, end - body - 1));
}

void print_hint(std::ostream& out, int number, unsigned k) {
  const std::string path = hints_path(number);
  std::ifstream in(path);
  if (!in) throw UsageError("lesson " + std::to_string(number) + " has no hints file (" + path + ")");
  std::stringstream text;
  text << in.rdbuf();
  const std::string markdown = text.str();
  const unsigned count = hint_count(markdown);
  const auto body = hint_text(markdown, k);
  if (!body)
    throw UsageError("--hint must be from 1 to " + std::to_string(count) + " for lesson " + std::to_string(number) +
                     " (got " + std::to_string(k) + ")");
  out << "Hint " << k << " of " << count << " for exercise " << (number < 10 ? "0" : "") << number << ":\n\n"
      << *body << "\n";
  if (k < count) out << "\n(--hint " << k + 1 << " says more)\n";
}

}  // namespace rl

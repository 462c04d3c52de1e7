#include "common/host/hints.h"

#include <cctype>
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
    const std::string_view line =
        text.substr(pos, end == std::string_view::npos ? text.size() - pos : end - pos);
    if (line.starts_with("## Hint ")) at.push_back(pos);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return at;
}

std::string without_comments(std::string_view s) {
  std::string out;
  for (std::size_t pos = 0; pos < s.size();) {
    const std::size_t open = s.find("<!--", pos);
    if (open == std::string_view::npos) {
      out.append(s.substr(pos));
      break;
    }
    out.append(s.substr(pos, open - pos));
    const std::size_t close = s.find("-->", open + 4);
    if (close == std::string_view::npos) break;
    pos = close + 3;
  }
  return out;
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The raw text of section k (1-based), comments included.
std::string_view section(std::string_view markdown, const std::vector<std::size_t>& at,
                         unsigned k) {
  const std::size_t body = markdown.find('\n', at[k - 1]);
  if (body == std::string_view::npos) return {};
  const std::size_t end = k < at.size() ? at[k] : markdown.size();
  return markdown.substr(body + 1, end - body - 1);
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
  // named in the error
  return (lessons / (std::string(prefix) + "*") / "exercise" / "HINTS.md").string();
}

unsigned hint_count(std::string_view markdown) {
  return static_cast<unsigned>(headings(markdown).size());
}

std::optional<std::string> hint_text(std::string_view markdown, unsigned k) {
  const auto at = headings(markdown);
  if (k == 0 || k > at.size()) return std::nullopt;
  return trimmed(without_comments(section(markdown, at, k)));
}

unsigned matching_hint(std::string_view markdown, std::string_view tag,
                       const std::vector<std::string_view>& keywords) {
  const auto at = headings(markdown);
  if (at.empty()) return 0;
  const auto count = static_cast<unsigned>(at.size());
  for (unsigned k = 1; k <= count; ++k) {  // an explicit tag: <!-- grader: race barrier -->
    const std::string_view text = section(markdown, at, k);
    for (std::size_t pos = text.find("<!--"); pos != std::string_view::npos;
         pos = text.find("<!--", pos + 4)) {
      const std::size_t close = text.find("-->", pos);
      std::string_view comment = text.substr(
          pos + 4, close == std::string_view::npos ? std::string_view::npos : close - pos - 4);
      const std::size_t label = comment.find("grader:");
      if (label == std::string_view::npos) continue;
      comment.remove_prefix(label + 7);
      std::size_t word = 0;
      while (word < comment.size()) {
        const std::size_t start = comment.find_first_not_of(" \t\n,", word);
        if (start == std::string_view::npos) break;
        const std::size_t stop = comment.find_first_of(" \t\n,", start);
        if (comment.substr(start, stop == std::string_view::npos ? std::string_view::npos
                                                                 : stop - start) == tag)
          return k;
        word = stop == std::string_view::npos ? comment.size() : stop;
      }
    }
  }
  for (unsigned k = 1; k <= count; ++k) {
    const std::string text = lowered(without_comments(section(markdown, at, k)));
    for (std::string_view w : keywords)
      if (text.find(lowered(w)) != std::string::npos) return k;
  }
  return 1;
}

void print_hint(std::ostream& out, int number, unsigned k) {
  const std::string path = hints_path(number);
  std::ifstream in(path);
  if (!in)
    throw UsageError("lesson " + std::to_string(number) + " has no hints file (" + path + ")");
  std::stringstream text;
  text << in.rdbuf();
  const std::string markdown = text.str();
  const unsigned count = hint_count(markdown);
  const auto body = hint_text(markdown, k);
  if (!body)
    throw UsageError("--hint must be from 1 to " + std::to_string(count) + " for lesson " +
                     std::to_string(number) + " (got " + std::to_string(k) + ")");
  out << "Hint " << k << " of " << count << " for exercise " << (number < 10 ? "0" : "") << number
      << ":\n\n"
      << *body << "\n";
  if (k < count) out << "\n(--hint " << k + 1 << " says more)\n";
}

}  // namespace rl

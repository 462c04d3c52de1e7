#include "common/sim/errors.h"

#include <cstdio>
#include <cstring>

namespace rl::sim::detail {

std::string format_report(const char* kernel, uint3 block, uint3 thread, const std::string& what) {
  std::string line = "sim: kernel '" + std::string(kernel ? kernel : "?") + "' block (" +
                     std::to_string(block.x) + "," + std::to_string(block.y) + "," +
                     std::to_string(block.z) + ") thread (" + std::to_string(thread.x) + "," +
                     std::to_string(thread.y) + "," + std::to_string(thread.z) + "): " + what;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

std::string format_ranges(const std::vector<unsigned>& ids) {
  constexpr std::size_t max_ranges = 8;
  std::string out;
  std::size_t ranges = 0;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    // Characters pushed one by one: GCC 12 misreports appending a literal here (-Wrestrict, its
    // bug 105329).
    if (ranges == max_ranges) {
      for (char c : {',', ' ', '.', '.', '.'}) out.push_back(c);
      break;
    }
    if (!out.empty()) {
      out.push_back(',');
      out.push_back(' ');
    }
    out.append(std::to_string(ids[i]));
    if (j > i) {
      out.push_back('-');
      out.append(std::to_string(ids[j]));
    }
    ++ranges;
    i = j + 1;
  }
  return out;
}

std::string format_location(const std::source_location& loc) {
  const char* file = loc.file_name();
  if (const char* slash = std::strrchr(file, '/')) file = slash + 1;
  return std::string(file) + ":" + std::to_string(loc.line());
}

bool same_location(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}

std::string format_mask(unsigned mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

}  // namespace rl::sim::detail

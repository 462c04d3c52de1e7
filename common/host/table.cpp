#include "common/host/table.h"

#include <algorithm>
#include <cstdio>

namespace rl {

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  };
  measure(header_);
  for (const auto& r : rows_) measure(r);
  auto line = [&](const std::vector<std::string>& row) {
    out << '|';
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      out << ' ' << cell << std::string(width[c] - cell.size(), ' ') << " |";
    }
    out << '\n';
  };
  line(header_);
  out << '|';
  for (std::size_t w : width) out << std::string(w + 2, '-') << '|';
  out << '\n';
  for (const auto& r : rows_) line(r);
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string general(double v, int significant) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

std::string duration(double ms) {
  if (ms < 1.0) return fixed(ms * 1e3, 2) + " us";
  if (ms < 1000.0) return fixed(ms, 3) + " ms";
  return fixed(ms / 1e3, 3) + " s";
}

}  // namespace rl

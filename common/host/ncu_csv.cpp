#include "common/host/ncu_csv.h"

#include <charconv>
#include <stdexcept>

namespace rl {

std::optional<std::size_t> NcuTable::column(std::string_view name) const {
  for (std::size_t c = 0; c < names.size(); ++c)
    if (names[c] == name) return c;
  return std::nullopt;
}

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"')
        fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += '"', ++i;  // "" inside quotes is a quote
      else
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("ncu CSV: a quote is not closed in: " + std::string(line));
  return fields;
}

NcuTable parse_ncu_csv(std::string_view text) {
  NcuTable t;
  bool header_seen = false;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    if (!header_seen) {
      // the profiled program's own output and ncu's ==PROF== lines come first
      if (!line.starts_with("\"ID\",")) continue;
      t.names = split_csv_line(line);
      header_seen = true;
      continue;
    }
    if (!line.starts_with('"')) continue;  // ncu's notes between or after the rows
    auto fields = split_csv_line(line);
    if (fields.size() != t.names.size())
      throw std::runtime_error("ncu CSV: line " + std::to_string(line_number) + " has " +
                               std::to_string(fields.size()) + " fields, the header " +
                               std::to_string(t.names.size()));
    // The row after the header holds the units: its ID field is empty, a launch's never is.
    if (t.units.empty() && t.rows.empty() && fields[0].empty())
      t.units = std::move(fields);
    else
      t.rows.push_back(std::move(fields));
  }
  if (!header_seen)
    throw std::runtime_error(
        "ncu printed no CSV table (no line starting \"ID\"): it profiled no kernel");
  if (t.units.empty()) t.units.assign(t.names.size(), "");
  return t;
}

std::optional<double> parse_ncu_number(std::string_view text) {
  if (text.empty() || text == "n/a") return std::nullopt;
  std::string digits;
  for (const char c : text)
    if (c != ',') digits += c;  // thousands separators: "4,197,632"
  double v = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (error != std::errc{} || end != digits.data() + digits.size())
    throw std::runtime_error("ncu CSV: '" + std::string(text) + "' is not a number");
  return v;
}

double to_microseconds(double value, std::string_view unit) {
  if (unit == "ns" || unit == "nsecond") return value / 1e3;
  if (unit == "us" || unit == "usecond") return value;
  if (unit == "ms" || unit == "msecond") return value * 1e3;
  if (unit == "s" || unit == "second") return value * 1e6;
  throw std::runtime_error("ncu CSV: unknown time unit '" + std::string(unit) + "'");
}

}  // namespace rl

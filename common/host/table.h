#pragma once
// A plain-text table with aligned columns, for the terminal and for pasting into READMEs as
// Markdown.
#include <ostream>
#include <string>
#include <vector>

namespace rl {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Markdown pipes, padded so the raw text lines up too.
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// printf-style number formatting for table cells.
std::string fixed(double v, int decimals);
std::string general(double v, int significant = 4);
// A duration given in milliseconds, in the unit that reads best: "12.3 us", "4.56 ms", "1.23 s".
std::string duration(double ms);

}  // namespace rl

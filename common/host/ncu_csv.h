#pragma once
// Nsight Compute's CSV, as `ncu --csv --page raw` prints it: a header row of column names (the
// launch's ID, kernel name, sizes, then one column per metric), a row of their units, then one row
// per profiled kernel launch, every field quoted. What the profiled program printed comes first on
// the same stream and is skipped. Used by `reducelab profile` (common/runner/profile.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

struct NcuTable {
  std::vector<std::string> names;  // the header row
  std::vector<std::string> units;  // one per column, "" where none (and all "" if ncu gave none)
  std::vector<std::vector<std::string>> rows;  // one per kernel launch, in launch order

  // The column of that name, if ncu printed one.
  std::optional<std::size_t> column(std::string_view name) const;
};

// The table in ncu's standard output. Lines before the header (the first line that starts with
// "ID" in quotes) and lines after it that are not CSV rows (ncu's own ==PROF== lines) are skipped.
// Throws std::runtime_error, saying what is wrong, when there is no header or a row's field count
// differs from the header's.
NcuTable parse_ncu_csv(std::string_view text);

// One CSV line split into its fields, quotes removed ("" inside quotes is one quote).
std::vector<std::string> split_csv_line(std::string_view line);

// A value as ncu prints it: "4,197,632" (thousands separators), "11.59", "0". Empty and "n/a" are
// nullopt; anything else that is not a number throws std::runtime_error naming it.
std::optional<double> parse_ncu_number(std::string_view text);

// A duration in `unit` ("ns", "nsecond", "us", "usecond", "ms", "msecond", "s", "second") in
// microseconds; throws std::runtime_error on any other unit.
double to_microseconds(double value, std::string_view unit);

}  // namespace rl

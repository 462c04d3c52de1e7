#pragma once
// The tables of the lessons beyond the sum (13: operators x types; 14-16: rows, columns, axes) as
// plot-ready rows: what was reduced, its GB/s, and the ratios against the libraries measured in the
// same run. Any `reducelab.*` record whose runs carry `gbps` reads this way (common/RESULTS.md).
// No ImGui here.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/results_model.h"  // ResultsError

namespace rl::viewer {

struct ComparisonRow {
  std::string label;                 // "argmax float16", "sum float32 4096x4096 dims {1}"
  std::optional<double> gbps;        // absent on the simulator
  std::optional<double> pct_of_sum;  // lesson 18: this run against its type's sum
  std::optional<double> vs_cub, vs_torch, vs_best;  // > 1: faster than that library
  bool verified = false;
};

struct LessonTable {
  std::string path, schema, device, backend;
  // 13..16 when the record says (or its schema implies) which; 0: unknown
  int lesson = 0;
  std::string part;  // for a merged record's table: the lesson it holds ("19_row_reduce")
  std::vector<ComparisonRow> rows;
};

// One-line ResultsError on anything malformed; the schema must be reducelab.<name> other than
// results and trace, version 1.
LessonTable parse_lesson_table(std::string_view text, const std::string& name);

// Every table in a file: a merged record (`reducelab.beyond`, whose `lessons` hold each lesson's
// own record) gives one table per lesson, any other record one table.
std::vector<LessonTable> parse_lesson_tables(std::string_view text, const std::string& name);

// The tables to show: each table once (a merged record's table and the lesson's own file hold the
// same runs: the first one loaded is kept), in lesson order.
std::vector<const LessonTable*> unique_tables(const std::vector<LessonTable>& tables);

// Whether a file's text names a schema parse_lesson_table reads (without parsing it).
bool looks_like_lesson_tables(std::string_view text);

}  // namespace rl::viewer

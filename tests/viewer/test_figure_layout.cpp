// The figure's geometry at the window sizes a student opens it at: every cell wide enough for its
// value (28 px with one trace, 18 px with two side by side), whole warps in the window when a
// block is wider, and no two labels overlapping, over every step of the committed traces.
#include <catch2/catch.hpp>

#include "viewer/block_figure.h"
#include "viewer/cell_text.h"
#include "viewer/figure_layout.h"
#include "viewer/steps.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;

namespace {

// The figure as the tree view lays it out in a panel `width` x `height`, focus on `block`.
struct Laid {
  BlockFigure figure;
  FigureGeometry geometry;
};

Laid lay(const Trace& t, const StepIndex& idx, int step, int block, std::int64_t want, float width,
         float height, bool two) {
  const int launch = idx.steps[static_cast<std::size_t>(step)].launch;
  const std::int64_t total = figure_columns_total(t, idx, launch, block);
  const int cols = figure_columns(width, total, two);
  Laid l;
  l.figure = build_figure(t, idx, step, {block, want / std::max(1, cols) * cols, cols});
  l.geometry = layout_figure(l.figure, {0, 100, width, 100 + height}, two);
  return l;
}

void check_labels(const FigureGeometry& g) {
  std::string problem;
  for (std::size_t i = 0; i < g.labels.size() && problem.empty(); ++i) {
    if (!g.area.contains(g.labels[i].box)) problem = "'" + g.labels[i].text + "' leaves the figure";
    for (std::size_t j = i + 1; j < g.labels.size() && problem.empty(); ++j) {
      if (g.labels[i].box.overlaps(g.labels[j].box))
        problem = "'" + g.labels[i].text + "' overlaps '" + g.labels[j].text + "'";
    }
  }
  INFO(problem);
  REQUIRE(problem.empty());
  REQUIRE(!g.labels.empty());
}

float min_cell(const FigureGeometry& g) {
  float w = 1e9f;
  for (const CellBox& c : g.cells) w = std::min(w, c.box.w());
  return w;
}

// Every held cell shows its value: a value label inside the cell.
void check_values_shown(const Laid& l) {
  const FigureGeometry& g = l.geometry;
  for (const CellBox& c : g.cells) {
    const FigureCell& cell =
        l.figure.rows[static_cast<std::size_t>(c.row)].cells[static_cast<std::size_t>(c.column)];
    if (!cell.held) continue;
    bool shown = false;
    for (const Label& lb : g.labels) {
      if (lb.kind == LabelKind::value && lb.row == c.row && lb.column == c.column) {
        REQUIRE(c.box.contains(lb.box));
        REQUIRE(lb.text.find_first_of("0123456789N") != std::string::npos);
        shown = true;
      }
    }
    INFO("row " << c.row << " column " << c.column << " value " << cell.value);
    REQUIRE(shown);
  }
}

}  // namespace

TEST_CASE(
    "the default trace at 1280x800: a block's 32 cells at least 28 px, 18 px two side by side",
    "[layout]") {
  const Trace t = test::asset("03_sequential_addressing.sim.json");
  const StepIndex idx = index_steps(t);
  REQUIRE(t.n == 64);
  REQUIRE(t.block == 32);
  for (bool two : {false, true}) {
    const float w = panel_width(1280, two);
    REQUIRE(figure_columns(w, 32, two) == 32);
    for (int s = 0; s < idx.count(); ++s) {
      INFO((two ? "two panels, step " : "one panel, step ") << s + 1);
      const Laid l = lay(t, idx, s, 0, 0, w, 380, two);
      REQUIRE(l.figure.column_count == 32);
      REQUIRE(min_cell(l.geometry) >= (two ? kMinCellTwo : kMinCellOne));
      check_values_shown(l);
      check_labels(l.geometry);
    }
  }
  // One panel: four significant digits fit a cell; two: three, or two for a negative value.
  const float one = std::floor(panel_width(1280, false) - gutter_width(false)) / 32 - 2;
  REQUIRE(format_cell_value(-0.316408157, one - 2) == "-0.3164");
  const float two = std::floor((panel_width(1280, true) - gutter_width(true)) / 32 - 1);
  REQUIRE(format_cell_value(0.3164, two - 2) == ".316");
  REQUIRE(format_cell_value(-0.3164, two - 2) == "-.32");
}

TEST_CASE("block 256 and 1024: one or two warps at full size, never hairlines", "[layout]") {
  struct Case {
    const char* trace;
    int step;
    std::int64_t total;
  };
  const Trace b256 = test::asset("03_sequential_addressing.b256.sim.json");
  const StepIndex i256 = index_steps(b256);
  const Trace b1024 = test::asset("10_multi_block_two_kernel.sim.json");
  const StepIndex i1024 = index_steps(b1024);
  const int launch1 = i1024.launch_first[1];
  REQUIRE(b1024.launches[1].block == 1024);
  REQUIRE(figure_columns_total(b1024, i1024, 1, 0) == 1024);
  for (bool two : {false, true}) {
    for (float display : {1280.f, 1600.f, 2560.f}) {
      const float w = panel_width(display, two);
      for (const auto& [t, idx, step] :
           {std::tuple{&b256, &i256, 1}, std::tuple{&b1024, &i1024, launch1 + 1}}) {
        INFO((two ? "two panels " : "one panel ") << display << " px");
        const int launch = idx->steps[static_cast<std::size_t>(step)].launch;
        const std::int64_t total = figure_columns_total(*t, *idx, launch, 0);
        const int cols = figure_columns(w, total, two);
        REQUIRE(cols % 32 == 0);
        REQUIRE(cols >= 32);
        REQUIRE(cols < total);
        for (std::int64_t want : {std::int64_t{0}, total / 2, total - 1}) {
          const Laid l = lay(*t, *idx, step, 0, want, w, 380, two);
          REQUIRE(l.figure.first_column <= want);
          REQUIRE(want < l.figure.first_column + l.figure.column_count);
          REQUIRE(min_cell(l.geometry) >= (two ? kMinCellTwo : kMinCellOne));
          check_values_shown(l);
          check_labels(l.geometry);
        }
      }
    }
  }
}

TEST_CASE("no two labels overlap, whatever the trace, step, size or focus", "[layout]") {
  for (const char* name :
       {"01_interleaved_divergent.sim.json", "02_interleaved_strided.b256.sim.json",
        "05_unroll_last_warp.sim.json", "08_warp_shuffle.sim.json", "09_block_two_stage.sim.json",
        "12_single_pass.sim.json", "broken/03_missing_barrier.sim.json",
        "broken/03_barrier_only_above_warp.b256.sim.json"}) {
    const Trace t = test::asset(name);
    const StepIndex idx = index_steps(t);
    for (bool two : {false, true}) {
      for (float height : {160.f, 380.f, 700.f}) {
        for (int s = 0; s < idx.count(); ++s) {
          INFO(name << (two ? " two panels" : " one panel") << " height " << height << " step "
                    << s + 1);
          const Laid l = lay(t, idx, s, 0, 0, panel_width(1280, two), height, two);
          check_labels(l.geometry);
          bool inside = true;
          for (const CellBox& c : l.geometry.cells)
            inside = inside && l.geometry.area.contains(c.box);
          REQUIRE(inside);
        }
      }
    }
  }
}

TEST_CASE("too many rows for the height: the latest ones are shown, with a note", "[layout]") {
  const Trace t = test::asset("08_warp_shuffle.sim.json");
  const StepIndex idx = index_steps(t);
  const Laid l = lay(t, idx, idx.count() - 1, 0, 0, panel_width(1280, false), 170, false);
  REQUIRE(l.geometry.first_row > 0);
  bool note = false;
  for (const Label& lb : l.geometry.labels) note = note || lb.kind == LabelKind::note;
  REQUIRE(note);
  // The current row is always among those shown.
  bool current = false;
  for (const CellBox& c : l.geometry.cells)
    current = current || l.figure.rows[static_cast<std::size_t>(c.row)].current;
  REQUIRE(current);
}

TEST_CASE("every row shown has its step number in the gutter, two digits and three", "[layout]") {
  const Trace t = test::asset("05_unroll_last_warp.sim.json");
  const StepIndex idx = index_steps(t);
  REQUIRE(idx.count() >= 10);
  for (bool two : {false, true}) {
    const Laid l = lay(t, idx, idx.count() - 1, 0, 0, panel_width(1280, two), 700, two);
    for (int r = l.geometry.first_row; r < static_cast<int>(l.figure.rows.size()); ++r) {
      const FigureRow& row = l.figure.rows[static_cast<std::size_t>(r)];
      if (r > l.geometry.first_row &&
          l.figure.rows[static_cast<std::size_t>(r - 1)].step == row.step)
        continue;
      bool numbered = false;
      for (const Label& lb : l.geometry.labels)
        numbered = numbered || (lb.kind == LabelKind::gutter && lb.row == r && !lb.compact);
      INFO("row " << r << " step " << row.number);
      REQUIRE(numbered);
    }
  }
  const FigureGeometry g = layout_figure(BlockFigure{}, {0, 0, 100, 100}, false);
  REQUIRE(g.labels.empty());
  REQUIRE(text_width("step 100") + 2 <= gutter_width(false));
}

#pragma once
// One trace's panel in the tree view: what it is and on which input, its total, its flags (stale
// reads, the first difference from the trace beside it, unexplained reads, lost events), the
// step's sentence, the overview of every launch and block, and the step figure of the block in
// focus (block_figure.h -> figure_layout.h -> figure_view.h).
#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "common/trace/stale_reads.h"
#include "common/trace/trace_model.h"
#include "viewer/block_figure.h"
#include "viewer/counter_text.h"
#include "viewer/figure_layout.h"
#include "viewer/overview.h"
#include "viewer/source_panel.h"
#include "viewer/steps.h"
#include "viewer/trace_compare.h"

namespace rl::viewer {

// Stale reads looked for at most: a trace with more says "and more".
inline constexpr std::size_t kStaleLimit = 10000;

struct TraceDoc {
  Trace trace;
  StepIndex steps;
  std::vector<StaleRead> stale;
  OverviewMarks marks;  // the blocks holding a stale read
  SourcePanel source;
  std::string array_name;  // the kernel's name for its shared array ("partial")
  std::string label;       // for pickers: "03 sequential_addressing (sim) - file.json"
  std::vector<LaunchPrediction> predicted;  // per launch: what it predicts of hardware counters
};

std::unique_ptr<TraceDoc> make_trace_doc(Trace t, const std::string& source_root);

// The panel's side of a comparison: null when it is shown alone.
struct PanelCompare {
  const TraceComparison* comparison = nullptr;
  int side = 0;  // 0: this trace is the comparison's left, 1: its right
};

class TreeView {
 public:
  // Draws the panel in `size` at step `step` (clamped to the trace's); progress 0..1 fades the step
  // in. header_h: the height the text above the figure takes at least, so that two panels' figures
  // start level (header_height() says what this panel needed last frame).
  void draw(const char* id, const TraceDoc& doc, int step, double progress, ImVec2 size, bool two,
            const PanelCompare& cmp, float header_h = 0);
  float header_height() const { return header_h_; }

  // Moves the focus to a block and the window that holds `column` (slot or lane index).
  void set_focus(int block, std::int64_t column) {
    block_ = block;
    want_column_ = column;
  }
  int block() const { return block_; }
  std::int64_t want_column() const { return want_column_; }
  // A step the panel asks the playback to go to (a click on another launch, "next launch"); -1:
  // none.
  int take_step_request() {
    const int s = step_request_;
    step_request_ = -1;
    return s;
  }
  int hovered_event() const { return hovered_event_; }

 private:
  int block_ = 0;
  std::int64_t want_column_ = 0;
  int step_request_ = -1;
  int hovered_event_ = -1;
  float header_h_ = 0;
  // The figure and its layout, rebuilt only when what they show changes.
  const TraceDoc* cached_doc_ = nullptr;
  int cached_step_ = -1, cached_block_ = -1, cached_columns_ = -1, cached_differs_ = -2;
  std::int64_t cached_first_ = -1;
  BlockFigure figure_;
  Rect cached_area_{};
  bool cached_two_ = false;
  FigureGeometry geometry_;
};

}  // namespace rl::viewer

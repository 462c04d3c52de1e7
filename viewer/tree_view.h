#pragma once
// Draws a trace's tree up to the current frame (one per launch and level): node boxes with values
// coloured by warp (nodes of this frame in full colour, earlier ones greyed; a red ring where an
// operand read a value the trace does not explain), edges, shuffles as lane-to-lane arrows, the
// threads of block 0 active or idle, and a line of facts for the frame.
#include <imgui.h>

#include <memory>
#include <string>

#include "common/trace/trace_facts.h"
#include "common/trace/trace_model.h"
#include "viewer/source_panel.h"
#include "viewer/tree_layout.h"

namespace rl::viewer {

struct TraceDoc {
  Trace trace;
  TraceFacts facts;
  TreeLayout layout;
  SourcePanel source;
  std::string label;  // for pickers: "03 sequential_addressing (sim) - file.json"
};

std::unique_ptr<TraceDoc> make_trace_doc(Trace t, const std::string& source_root);

// The facts line for a frame: "launch 0 level 2:  16 active threads  |  1 of 1 warps divergent  |  ..."
std::string facts_line(const TraceDoc& doc, int frame);

class TreeView {
 public:
  // frame: index into doc.layout.frames (clamped); progress 0..1 fades in that frame's nodes.
  void draw(const char* id, const TraceDoc& doc, int frame, double progress, ImVec2 size);

 private:
  float zoom_ = 1.f;  // horizontal zoom around the mouse (wheel); 1 = fit
  float pan_ = 0.f;   // pixels
};

}  // namespace rl::viewer

#pragma once
// The lessons beyond the sum: one panel per table (lesson 18's operators x types, 14-16's shapes),
// each table once and in lesson order, a bar per run, the longest bar of a table the full width,
// labelled with its ratios to the libraries. Scrolls when the tables are taller than the window.
#include <imgui.h>

#include <vector>

#include "viewer/tables_model.h"

namespace rl::viewer {

class TablesView {
 public:
  void draw(const std::vector<const LessonTable*>& tables, ImVec2 size);
};

}  // namespace rl::viewer

#include "viewer/counter_layout.h"

#include <algorithm>

#include "viewer/cell_text.h"
#include "viewer/step_text.h"

namespace rl::viewer {

PanelLayout layout_counter_panel(const CounterPanel& p, float width) {
  PanelLayout out;
  out.width = width;
  float y = 0;
  auto line = [&](std::vector<PanelCell> cells) {
    out.lines.push_back({y, std::move(cells)});
    y += kPanelLineH;
  };
  // The title: what measured it first, then which call and launch, wrapped between phrases.
  if (p.rows.empty()) {
    // A title alone says only what is missing: dim, one sentence.
    for (const auto& l : wrap_phrases(p.title, width, " ")) line({{0, l, PanelStyle::dim}});
  } else if (!p.title.empty()) {
    for (const auto& l : wrap_phrases({p.title.front()}, width)) line({{0, l, PanelStyle::title}});
    const std::vector<std::string> rest(p.title.begin() + 1, p.title.end());
    for (const auto& l : wrap_phrases(rest, width, ", ")) line({{0, l, PanelStyle::dim}});
  }
  if (!p.caveat.empty()) {
    for (const auto& l : wrap_phrases(sentence_phrases(p.caveat), width, " "))
      line({{0, l, PanelStyle::caveat}});
  }
  // The table: what, the trace's figure, the counter's, each column as wide as its widest text.
  float what_w = 0, trace_w = text_width(p.trace_heading),
        counted_w = text_width(p.counted_heading);
  for (const CounterRow& r : p.rows) {
    what_w = std::max(what_w, text_width(r.what));
    trace_w = std::max(trace_w, text_width(r.trace));
    counted_w = std::max(counted_w, text_width(r.counted));
  }
  const float gap = 2 * kFontCharW;
  const float trace_x = what_w + gap, counted_x = trace_x + trace_w + gap;
  // Figures right-aligned under their heading's right edge.
  auto right = [](float x, float w, const std::string& s) { return x + w - text_width(s); };
  if (!p.rows.empty()) {
    line(
        {{right(trace_x, trace_w, p.trace_heading), p.trace_heading, PanelStyle::heading},
         {right(counted_x, counted_w, p.counted_heading), p.counted_heading, PanelStyle::heading}});
  }
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const CounterRow& r = p.rows[i];
    const int tip = static_cast<int>(i);
    line({{0, r.what, PanelStyle::text, tip},
          {right(trace_x, trace_w, r.trace), r.trace, PanelStyle::value, tip},
          {right(counted_x, counted_w, r.counted), r.counted, PanelStyle::value, tip}});
  }
  const int facts_tip = static_cast<int>(p.rows.size());
  for (const auto& l : wrap_phrases(p.facts, width)) line({{0, l, PanelStyle::text, facts_tip}});
  for (const auto& l : wrap_phrases(p.stalls, width, ", "))
    line({{0, l, PanelStyle::text, facts_tip}});
  out.height = y;
  return out;
}

std::vector<TextLine> layout_paragraphs(const std::vector<std::vector<std::string>>& paragraphs,
                                        float width) {
  std::vector<TextLine> out;
  for (std::size_t i = 0; i < paragraphs.size(); ++i) {
    // A launch's lines after its first indented, so that each launch reads as one block.
    const std::vector<std::string> lines = wrap_phrases(
        paragraphs[i], width - (i == 0 ? 0 : 4 * kFontCharW), i == 0 ? ", " : kPhraseSeparator);
    for (std::size_t k = 0; k < lines.size(); ++k)
      out.push_back(
          {(k > 0 ? "    " : "") + lines[k], i == 0 ? PanelStyle::title : PanelStyle::text});
  }
  return out;
}

BottomPlace place_counters(float column_w) {
  BottomPlace b;
  b.beside = column_w >= kBesideSourceW;
  // Beside: the source keeps 60% (its lines are rarely longer), the panel at least its table.
  b.panel_w = b.beside ? std::max(kMinPanelW, column_w * 0.4f) : column_w;
  b.source_w = b.beside ? column_w - b.panel_w - kFontCharW : column_w;
  return b;
}

}  // namespace rl::viewer

#include "viewer/tree_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "viewer/colors.h"
#include "viewer/figure_view.h"
#include "viewer/overview_view.h"
#include "viewer/source_names.h"
#include "viewer/step_text.h"

namespace rl::viewer {

std::unique_ptr<TraceDoc> make_trace_doc(Trace t, const std::string& source_root) {
  auto doc = std::make_unique<TraceDoc>();
  doc->trace = std::move(t);
  doc->steps = index_steps(doc->trace);
  doc->predicted = predict_launches(doc->trace, doc->steps);
  doc->stale = find_stale_reads(doc->trace, kStaleLimit);
  for (const StaleRead& r : doc->stale) doc->marks.stale.emplace(r.launch, r.block);
  doc->source.load(doc->trace.source, source_root);
  doc->array_name = shared_array_name(doc->source.lines());
  // The file first: two traces of one lesson (a student's and the solution) differ by it.
  char lesson[16];
  std::snprintf(lesson, sizeof lesson, "%02d ", doc->trace.lesson);
  doc->label = std::filesystem::path(doc->trace.name).filename().string() + "  (" + lesson +
               doc->trace.slug + (doc->trace.variant.empty() ? "" : " / " + doc->trace.variant) +
               ", " + doc->trace.backend + ")";
  return doc;
}

namespace {

std::string value_text(double v) {
  if (std::isnan(v)) return "NaN (the kernel's output is not a number)";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5g", v);
  return buf;
}

void colored_lines(const std::vector<std::string>& lines, ImU32 color) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  for (const auto& l : lines) ImGui::TextUnformatted(l.c_str());
  ImGui::PopStyleColor();
}

// A sentence wrapped between its phrases at `width`.
void sentence(const std::string& s, float width, ImU32 color) {
  colored_lines(wrap_phrases(sentence_phrases(s), width, " "), color);
}

}  // namespace

void TreeView::draw(const char* id, const TraceDoc& doc, int step, double progress, ImVec2 size,
                    bool two, const PanelCompare& cmp, float header_h) {
  ImGui::PushID(id);
  hovered_event_ = -1;
  const Trace& t = doc.trace;
  const StepIndex& idx = doc.steps;
  const float w = std::max(100.f, size.x);
  const ImVec2 top = ImGui::GetCursorScreenPos();

  ImGui::TextColored(ImVec4(1, 1, 1, 1), "%02d %s", t.lesson, t.title.c_str());
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "(%s) %s", t.backend.c_str(),
                     std::filesystem::path(t.name).filename().string().c_str());
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "n=%lld  %s  seed %llu  %s",
                     static_cast<long long>(t.n), t.block_label().c_str(),
                     static_cast<unsigned long long>(t.seed), t.distribution.c_str());
  ImGui::SameLine(0, 14);
  ImGui::TextUnformatted("total");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(1, 0.86f, 0.4f, 1), "%s", value_text(t.result).c_str());

  // Flags: what a teacher would circle.
  const TraceComparison* c = cmp.comparison;
  const FirstDifference* diff = c && c->same_input && c->first.found ? &c->first : nullptr;
  const int differs_event = diff ? diff->event[cmp.side] : -1;
  if (t.overflow)
    sentence("OVERFLOW: the recorder lost events; this figure is incomplete", w, kStale);
  if (!t.barriers) {
    sentence(
        "This trace has no barrier events (a GPU records none): stale reads cannot be looked for.",
        w, kDimText);
  } else if (!doc.stale.empty()) {
    std::string s = "Stale read: " + describe_stale_read(doc.stale.front(), doc.array_name) + ".";
    if (doc.stale.size() > 1) {
      s += " (" + std::to_string(doc.stale.size() - 1) +
           (doc.stale.size() >= kStaleLimit ? "+" : "") + " more)";
    }
    sentence(s, w, kStale);
  }
  if (diff) {
    const int e = diff->event[cmp.side];
    const int other = diff->event[1 - cmp.side];
    std::string s = "First difference";
    if (e >= 0) {
      const Event& ev = t.events[static_cast<std::size_t>(e)];
      s += ", step " + std::to_string(idx.event_step[static_cast<std::size_t>(e)] + 1) +
           " (launch " + std::to_string(ev.launch) + "): block " + std::to_string(ev.block) +
           ", thread " + std::to_string(ev.thread) + " wrote " +
           (ev.dst.space.kind == SpaceKind::shared
                ? doc.array_name + "[" + std::to_string(ev.dst.index) + "]"
                : t.location_name(ev.dst)) +
           " = " + value_text(ev.value) + " here,";
      if (other >= 0) {
        // appended piece by piece: GCC 12 warns (-Wrestrict) falsely on " " + std::string
        s += ' ';
        s += value_text(diff->value[1 - cmp.side]);
        s += " in the other trace (line " + std::to_string(ev.line) + ").";
      } else {
        s += " and the other trace writes nothing there.";
      }
    } else {
      s += ": the other trace writes " + diff->location + " = " +
           value_text(diff->value[1 - cmp.side]) + " (block " + std::to_string(diff->block) +
           ", thread " + std::to_string(diff->thread) + "); this one does not.";
    }
    sentence(s, w, kDiffers);
  } else if (c && c->same_input) {
    sentence("Every write matches the other trace's.", w, IM_COL32(120, 220, 140, 255));
  }
  if (!t.dag.unexplained.empty() && doc.stale.empty()) {
    sentence(std::to_string(t.dag.unexplained.size()) +
                 " reads of values the trace does not explain (orange edges).",
             w, kUnexplained);
  }
  if (idx.steps.empty()) {
    ImGui::TextUnformatted("No events recorded.");
    ImGui::PopID();
    return;
  }
  step = std::clamp(step, 0, idx.count() - 1);
  colored_lines(wrap_phrases(step_phrases(t, idx, step), w), IM_COL32(255, 216, 100, 255));
  header_h_ = ImGui::GetCursorScreenPos().y - top.y;
  if (header_h > header_h_)
    ImGui::Dummy({w, header_h - header_h_ - ImGui::GetStyle().ItemSpacing.y});

  // The focus: which block, which columns; the controls that move it.
  const Step& st = idx.steps[static_cast<std::size_t>(step)];
  const int launch = st.launch;
  const int grid = t.launches[static_cast<std::size_t>(launch)].grid;
  block_ = std::clamp(block_, 0, grid - 1);
  const std::int64_t total = figure_columns_total(t, idx, launch, block_);
  const int cols = figure_columns(w, total, two);
  const std::int64_t first = cols > 0
                                 ? std::clamp<std::int64_t>(want_column_ / cols * cols, 0,
                                                            std::max<std::int64_t>(0, total - cols))
                                 : 0;
  if (ImGui::SmallButton("< block")) set_focus(std::max(0, block_ - 1), want_column_);
  ImGui::SameLine();
  ImGui::Text("block %d of %d", block_, grid);
  ImGui::SameLine();
  if (ImGui::SmallButton("block >")) set_focus(std::min(grid - 1, block_ + 1), want_column_);
  if (cols > 0 && cols < total) {
    ImGui::SameLine(0, 14);
    if (ImGui::SmallButton("< warps")) want_column_ = std::max<std::int64_t>(0, first - cols);
    ImGui::SameLine();
    ImGui::Text("columns %lld-%lld of %lld", static_cast<long long>(first),
                static_cast<long long>(first + cols - 1), static_cast<long long>(total));
    ImGui::SameLine();
    if (ImGui::SmallButton("warps >"))
      want_column_ = std::min<std::int64_t>(total - 1, first + cols);
  }
  if (static_cast<std::size_t>(launch + 1) < t.launches.size() &&
      idx.launch_first[static_cast<std::size_t>(launch + 1)] >= 0) {
    ImGui::SameLine(0, 14);
    if (ImGui::SmallButton("next launch >"))
      step_request_ = idx.launch_first[static_cast<std::size_t>(launch + 1)];
  }

  // The figure, rebuilt when what it shows changed.
  if (cached_doc_ != &doc || cached_step_ != step || cached_block_ != block_ ||
      cached_columns_ != cols || cached_first_ != first || cached_differs_ != differs_event) {
    FigureMarks marks;
    marks.stale = &doc.stale;
    marks.differs_event = differs_event;
    figure_ = build_figure(t, idx, step, {block_, first, cols}, marks);
    cached_doc_ = &doc, cached_step_ = step, cached_block_ = block_, cached_columns_ = cols,
    cached_first_ = first, cached_differs_ = differs_event;
    cached_area_ = {};
  }

  // The overview of every launch and block.
  OverviewMarks om = doc.marks;
  if (differs_event >= 0) {
    const Event& e = t.events[static_cast<std::size_t>(differs_event)];
    om.differs = {e.launch, e.block};
  }
  const Overview ov = build_overview(t, idx, step, block_, figure_.first_column,
                                     figure_.column_count, figure_.active, w - 76.f, om);
  const ImVec2 ov_at = ImGui::GetCursorScreenPos();
  const float ov_h = overview_height(ov);
  const OverviewClick click = draw_overview(ov, {ov_at.x, ov_at.y + 2}, w);
  ImGui::Dummy({w, ov_h + 4});
  for (const OverviewLaunch& l : ov.launches) {
    if (l.blocks_per_tile <= 1) continue;
    // Past what one tile a block can show: say so (the recorder warned too).
    ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1),
                       "launch %d's %d blocks: %d to a tile, the busiest lighting it (hover a tile "
                       "for its blocks)",
                       l.launch, l.grid, l.blocks_per_tile);
    break;
  }
  if (click.block >= 0) {
    set_focus(click.block, want_column_);
    if (click.launch != launch && idx.launch_first[static_cast<std::size_t>(click.launch)] >= 0) {
      step_request_ = idx.launch_first[static_cast<std::size_t>(click.launch)];
    }
  }
  if (click.warp >= 0) want_column_ = std::int64_t{click.warp} * 32;

  const ImVec2 at = ImGui::GetCursorScreenPos();
  const Rect area{at.x, at.y, at.x + w, std::max(at.y + 60.f, top.y + size.y)};
  if (area.x0 != cached_area_.x0 || area.y0 != cached_area_.y0 || area.x1 != cached_area_.x1 ||
      area.y1 != cached_area_.y1 || two != cached_two_) {
    geometry_ = layout_figure(figure_, area, two);
    cached_area_ = area;
    cached_two_ = two;
  }
  FigureTooltipExtra extra;
  extra.array_name = doc.array_name;
  extra.differs_event = differs_event;
  if (diff) {
    extra.other_value = diff->value[1 - cmp.side];
    extra.other_written = diff->event[1 - cmp.side] >= 0;
  }
  ImGui::PushClipRect({area.x0, area.y0}, {area.x1, area.y1}, true);
  hovered_event_ = draw_figure(t, figure_, geometry_, progress, extra);
  ImGui::PopClipRect();
  ImGui::SetCursorScreenPos({area.x0, area.y1});
  ImGui::Dummy({w, 0});
  ImGui::PopID();
}

}  // namespace rl::viewer

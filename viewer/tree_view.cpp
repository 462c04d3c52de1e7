#include "viewer/tree_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viewer/colors.h"

namespace rl::viewer {

std::unique_ptr<TraceDoc> make_trace_doc(Trace t, const std::string& source_root) {
  auto doc = std::make_unique<TraceDoc>();
  doc->trace = std::move(t);
  doc->facts = compute_facts(doc->trace);
  doc->layout = layout_tree(doc->trace);
  doc->source.load(doc->trace.source, source_root);
  char lesson[16];
  std::snprintf(lesson, sizeof lesson, "%02d ", doc->trace.lesson);
  doc->label = lesson + doc->trace.slug + (doc->trace.variant.empty() ? "" : " / " + doc->trace.variant) + " (" +
               doc->trace.backend + ") - " + doc->trace.name;
  return doc;
}

std::string facts_line(const TraceDoc& doc, int frame) {
  const auto& frames = doc.layout.frames;
  if (frames.empty()) return "no events recorded";
  const Frame& f = frames[static_cast<std::size_t>(std::clamp(frame, 0, static_cast<int>(frames.size()) - 1))];
  const LevelFacts* s = doc.facts.find(f.launch, f.level);
  char buf[256];
  if (!s) {
    std::snprintf(buf, sizeof buf, "launch %d level %d", f.launch, f.level);
    return buf;
  }
  int shuffles = 0;
  for (const auto& w : s->shuffles) shuffles += static_cast<int>(w.pairs.size());
  std::string bank = s->worst_bank_conflict == 0 ? "no shared access"
                     : s->worst_bank_conflict == 1
                         ? "shared: no bank conflict"
                         : "shared: worst bank conflict " + std::to_string(s->worst_bank_conflict) + "-way";
  std::snprintf(buf, sizeof buf, "launch %d level %d:  %d active threads  |  %d of %d warps divergent  |  %s%s", f.launch,
                f.level, s->active_threads, s->divergent_warps, s->active_warps, bank.c_str(),
                shuffles ? ("  |  " + std::to_string(shuffles) + " shuffles").c_str() : "");
  return buf;
}

namespace {

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float th, float head) {
  dl->AddLine(a, b, col, th);
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1.f) return;
  const float ux = dx / len, uy = dy / len;
  dl->AddTriangleFilled(b, {b.x - ux * head - uy * head * 0.5f, b.y - uy * head + ux * head * 0.5f},
                        {b.x - ux * head + uy * head * 0.5f, b.y - uy * head - ux * head * 0.5f}, col);
}

void format_value(char* buf, std::size_t n, double v) {
  if (v == 0) std::snprintf(buf, n, "0");
  else if (std::abs(v) >= 1000 || std::abs(v) < 0.01) std::snprintf(buf, n, "%.2g", v);
  else std::snprintf(buf, n, "%.3g", v);
}

}  // namespace

void TreeView::draw(const char* id, const TraceDoc& doc, int frame, double progress, ImVec2 size) {
  ImGui::PushID(id);
  const Trace& t = doc.trace;
  const TreeLayout& lay = doc.layout;
  const int frames = static_cast<int>(lay.frames.size());
  frame = std::clamp(frame, 0, std::max(0, frames - 1));

  ImGui::TextColored(ImVec4(1, 1, 1, 1), "%02d %s", t.lesson, t.title.c_str());
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "%s, %s | n=%lld (%s, seed %llu), %zu launch%s, %d level%s",
                     t.backend.c_str(), t.device.c_str(), static_cast<long long>(t.n), t.distribution.c_str(),
                     static_cast<unsigned long long>(t.seed), t.launches.size(), t.launches.size() == 1 ? "" : "es",
                     t.dag.max_level, t.dag.max_level == 1 ? "" : "s");
  if (t.overflow) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "OVERFLOW: the recorder lost events; this tree is incomplete");
  }
  if (!t.dag.unexplained.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%zu read%s of values the trace does not explain (ringed red)",
                       t.dag.unexplained.size(), t.dag.unexplained.size() == 1 ? "" : "s");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 216, 100, 255));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
  ImGui::Text("frame %d/%d  %s", frame + 1, std::max(1, frames), facts_line(doc, frame).c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float strip_h = 22.f;
  size.x = std::max(size.x, 100.f);
  size.y = std::max(size.y - strip_h - 4.f, 80.f);
  ImGui::InvisibleButton("tree", size);
  const bool hovered = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0) {
    const float old = zoom_;
    zoom_ = std::clamp(zoom_ * (io.MouseWheel > 0 ? 1.25f : 0.8f), 1.f, 64.f);
    const float mx = io.MousePos.x - origin.x;
    pan_ = mx - (mx - pan_) * zoom_ / old;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(0)) pan_ += io.MouseDelta.x;
  if (hovered && ImGui::IsMouseDoubleClicked(0)) zoom_ = 1.f, pan_ = 0.f;
  const float content_w = size.x * zoom_;
  pan_ = std::clamp(pan_, size.x - content_w, 0.f);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  // A border, not a fill: under a software renderer every blended pixel counts.
  dl->AddRect(origin, {origin.x + size.x, origin.y + size.y}, kGridColor);
  dl->PushClipRect(origin, {origin.x + size.x, origin.y + size.y}, true);

  const float margin = 8.f;
  const float unit = (content_w - 2 * margin) / std::max(1.f, lay.width);
  const float row_h = (size.y - 2 * margin) / static_cast<float>(std::max(1, lay.rows));
  const float box_w = std::max(1.f, std::min(unit * 0.86f, 64.f));
  const float box_h = std::max(1.f, std::min(row_h * 0.62f, 26.f));
  auto center = [&](const LaidNode& n) {
    return ImVec2(origin.x + pan_ + margin + (n.x + 0.5f) * unit, origin.y + size.y - margin - (n.y + 0.5f) * row_h);
  };
  const float left_clip = origin.x - box_w, right_clip = origin.x + size.x + box_w;

  // Launch and frame bands: a faint label per frame at the left.
  for (int f = 0; f < frames; ++f) {
    const Frame& fr = lay.frames[static_cast<std::size_t>(f)];
    const float y_top = origin.y + size.y - margin - static_cast<float>(fr.first_row + fr.rows) * row_h;
    if (f == frame) {
      dl->AddRectFilled({origin.x, y_top}, {origin.x + size.x, y_top + static_cast<float>(fr.rows) * row_h},
                        IM_COL32(255, 210, 80, 22));
    }
    if (f > 0 && lay.frames[static_cast<std::size_t>(f - 1)].launch != fr.launch) {
      const float y = y_top + static_cast<float>(fr.rows) * row_h;
      dl->AddLine({origin.x, y}, {origin.x + size.x, y}, IM_COL32(200, 200, 220, 90), 1.f);
      char buf[32];
      std::snprintf(buf, sizeof buf, "launch %d", fr.launch);
      dl->AddText({origin.x + size.x - 70, y - ImGui::GetTextLineHeight()}, kDimText, buf);
    }
  }

  const float fade = static_cast<float>(std::clamp(progress, 0.0, 1.0));
  // Dense trees: plain lines and square boxes (anti-aliasing sub-pixel shapes costs and shows nothing).
  const ImDrawListFlags saved_flags = dl->Flags;
  if (unit < 4.f) dl->Flags &= ~(ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedFill);
  // Edges first, under the boxes.
  const float th = std::clamp(unit * 0.08f, 1.f, 2.f);
  for (const auto& e : lay.edges) {
    const LaidNode& to = lay.nodes[static_cast<std::size_t>(e.to)];
    if (to.frame > frame) continue;
    const LaidNode& from = lay.nodes[static_cast<std::size_t>(e.from)];
    ImVec2 a = center(from), b = center(to);
    if (std::max(a.x, b.x) < left_clip || std::min(a.x, b.x) > right_clip) continue;
    const bool current = to.frame == frame;
    const float alpha = current ? fade : 1.f;
    a.y -= box_h / 2;
    b.y += box_h / 2;
    if (e.shuffle) {
      arrow(dl, a, b, with_alpha(current ? IM_COL32(255, 150, 60, 255) : IM_COL32(150, 100, 60, 255), alpha), th + 0.5f,
            std::clamp(unit * 0.3f, 4.f, 9.f));
    } else {
      const ImU32 col = e.carries ? IM_COL32(120, 120, 135, 255) : IM_COL32(170, 170, 190, 255);
      dl->AddLine(a, b, with_alpha(current ? IM_COL32(235, 235, 245, 255) : col, alpha * (current ? 1.f : 0.7f)), th);
    }
  }

  // Nodes.
  const bool text = box_w >= 26.f && box_h >= ImGui::GetTextLineHeight() - 1;
  const DagNode* hover_node = nullptr;
  char buf[32];
  for (const auto& n : lay.nodes) {
    if (n.frame > frame) continue;
    const ImVec2 c = center(n);
    if (c.x < left_clip || c.x > right_clip) continue;
    const DagNode& d = t.dag.nodes[static_cast<std::size_t>(n.node)];
    const bool current = n.frame == frame;
    ImU32 fill = d.is_leaf() ? IM_COL32(90, 100, 120, 255) : warp_color(std::max(0, d.thread) / 32);
    if (!current) fill = d.is_leaf() ? IM_COL32(60, 64, 74, 255) : greyed(fill);
    const float alpha = current ? 0.25f + 0.75f * fade : 1.f;
    const ImVec2 a{c.x - box_w / 2, c.y - box_h / 2}, b{c.x + box_w / 2, c.y + box_h / 2};
    dl->AddRectFilled(a, b, with_alpha(fill, alpha), box_w > 6 ? 3.f : 0.f);
    if (current && box_w > 4) dl->AddRect(a, b, with_alpha(IM_COL32(255, 255, 255, 255), alpha), 3.f);
    if (n.node == t.dag.final_node && frame == frames - 1) dl->AddRect({a.x - 2, a.y - 2}, {b.x + 2, b.y + 2}, kHighlight, 3.f, 0, 2.f);
    if (d.unexplained) dl->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, with_alpha(kUnexplained, alpha), 3.f, 0, 2.f);
    if (text) {
      format_value(buf, sizeof buf, d.value);
      const ImVec2 ts = ImGui::CalcTextSize(buf);
      if (ts.x <= box_w + 2) dl->AddText({c.x - ts.x / 2, c.y - ts.y / 2}, current ? IM_COL32_WHITE : IM_COL32(200, 200, 205, 255), buf);
    }
    if (hovered && io.MousePos.x >= a.x && io.MousePos.x <= b.x && io.MousePos.y >= a.y && io.MousePos.y <= b.y) hover_node = &d;
  }
  dl->Flags = saved_flags;
  dl->PopClipRect();

  if (hover_node) {
    ImGui::BeginTooltip();
    ImGui::Text("%s = %.9g", t.location_name(hover_node->loc).c_str(), hover_node->value);
    if (hover_node->is_leaf()) {
      ImGui::Text("input element %d", hover_node->id);
    } else {
      const Event& e = t.events[static_cast<std::size_t>(hover_node->event)];
      ImGui::Text("%s by block %d thread %d (warp %d, lane %d)", std::string(to_string(e.kind)).c_str(), e.block, e.thread,
                  e.thread / 32, e.thread % 32);
      ImGui::Text("launch %d level %d, event %d, source line %d", e.launch, hover_node->level, hover_node->event, e.line);
      const Operand* ops[2] = {&e.a, &e.b};
      for (int k = 0; k < 2; ++k) {
        if (!ops[k]->present()) continue;
        const bool bad = (hover_node->unexplained >> k) & 1;
        const int v = hover_node->operand_nodes[static_cast<std::size_t>(k)];
        char why[80] = "";
        if (bad && v >= 0) {
          std::snprintf(why, sizeof why, ", but its version holds %.9g", t.dag.nodes[static_cast<std::size_t>(v)].value);
        } else if (bad) {
          std::snprintf(why, sizeof why, ", but nothing wrote it before");
        }
        ImGui::TextColored(bad ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(1, 1, 1, 1), "%c: %s = %.9g%s", k == 0 ? 'a' : 'b',
                           t.location_name(ops[k]->loc).c_str(), ops[k]->value, why);
      }
    }
    ImGui::EndTooltip();
  }

  // Block 0's threads at this frame: coloured when active, grey when idle.
  if (frames > 0) {
    const Frame& fr = lay.frames[static_cast<std::size_t>(frame)];
    const int threads = t.launches[static_cast<std::size_t>(fr.launch)].block;
    std::vector<char> active(static_cast<std::size_t>(threads), 0);
    for (int ei : fr.events) {
      const Event& e = t.events[static_cast<std::size_t>(ei)];
      if (e.block == 0 && e.thread >= 0 && e.thread < threads &&
          (e.kind == EventKind::load || e.kind == EventKind::combine || e.kind == EventKind::shuffle)) {
        active[static_cast<std::size_t>(e.thread)] = 1;
      }
    }
    const ImVec2 so{origin.x, origin.y + size.y + 4};
    const char* label = "block 0 threads:";
    dl->AddText({so.x, so.y + 2}, kDimText, label);
    const float lx = so.x + ImGui::CalcTextSize(label).x + 8;
    const float cell = std::clamp((size.x - (lx - so.x) - 4) / static_cast<float>(threads), 1.f, 14.f);
    for (int i = 0; i < threads; ++i) {
      const float x = lx + cell * static_cast<float>(i);
      const ImU32 col = active[static_cast<std::size_t>(i)] ? warp_color(i / 32) : IM_COL32(70, 70, 78, 255);
      dl->AddRectFilled({x, so.y + 3}, {x + std::max(1.f, cell - 1.f), so.y + strip_h - 5}, col);
    }
    ImGui::Dummy({size.x, strip_h});
  }
  ImGui::PopID();
}

}  // namespace rl::viewer

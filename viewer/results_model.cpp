#include "viewer/results_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "viewer/json_reader.h"

namespace rl::viewer {

using nlohmann::json;

ResultsFile parse_results(std::string_view text, const std::string& name) {
  const JsonReader r{name};
  const json doc = r.parse(text);
  r.expect_schema(doc, "reducelab.results");
  ResultsFile f;
  f.path = name;
  f.backend = r.str_or(doc, "backend", "");
  f.created_utc = r.str_or(doc, "created_utc", "");
  if (auto d = doc.find("device"); d != doc.end() && d->is_object()) {
    f.device = r.str_or(*d, "name", "");
    f.theoretical_gbps = r.opt(*d, "theoretical_gbps", "device.");
  }
  const json& runs = r.need(doc, "runs", "");
  if (!runs.is_array()) r.fail("runs must be an array");
  try {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string where = "run " + std::to_string(i) + ": ";
      const json& o = runs[i];
      if (!o.is_object()) r.fail(where + "must be an object");
      RunRow row;
      const double lesson = r.num(o, "lesson", where);
      if (lesson < 0 || lesson > 1000 || lesson != std::floor(lesson))
        r.fail(where + "lesson must be an integer 0..1000");
      row.lesson = static_cast<int>(lesson);
      row.slug = r.str(o, "slug", where);
      row.title = r.str_or(o, "title", row.slug);
      row.variant = r.str_or(o, "variant", "");
      row.backend = r.str_or(o, "backend", f.backend);
      row.n = r.num(o, "n", where);
      if (row.n < 1) r.fail(where + "n must be at least 1");
      if (auto b = r.opt(o, "block", where)) row.block = static_cast<int>(std::clamp(*b, 0.0, 1e6));
      if (auto v = o.find("verified"); v != o.end() && v->is_boolean())
        row.verified = v->get<bool>();
      row.gbps = r.opt(o, "gbps", where);
      row.pct_of_ceiling = r.opt(o, "pct_of_ceiling", where);
      row.vs_cub = r.opt(o, "vs_cub", where);
      if (auto t = o.find("time"); t != o.end() && t->is_object()) {
        row.median_ms = r.opt(*t, "median_ms", where + "time.");
        row.launch = r.str_or(*t, "launch", "");
      }
      if (auto d = o.find("device_time"); d != o.end() && d->is_object())
        row.device_ms = r.opt(*d, "median_ms", where + "device_time.");
      if (auto l = o.find("launch_bound"); l != o.end() && l->is_boolean())
        row.launch_bound = l->get<bool>();
      if (auto g = r.opt(o, "gpus", where)) {
        if (*g < 1 || *g > 4096 || *g != std::floor(*g))
          r.fail(where + "gpus must be an integer 1..4096");
        row.gpus = static_cast<int>(*g);
      }
      row.scaling_efficiency = r.opt(o, "scaling_efficiency", where);
      f.runs.push_back(std::move(row));
    }
    if (auto b = doc.find("baselines"); b != doc.end()) {
      if (!b->is_array()) r.fail("baselines must be an array");
      for (std::size_t i = 0; i < b->size(); ++i) {
        const std::string where = "baseline " + std::to_string(i) + ": ";
        const json& o = (*b)[i];
        if (!o.is_object()) r.fail(where + "must be an object");
        BaselineRow row;
        row.n = r.num(o, "n", where);
        row.stream_read_gbps = r.opt(o, "stream_read_gbps", where);
        row.copy_gbps = r.opt(o, "copy_gbps", where);
        row.cub_gbps = r.opt(o, "cub_gbps", where);
        f.baselines.push_back(row);
      }
    }
  } catch (const json::exception& e) {
    r.fail(std::string("unexpected content: ") + e.what());
  }
  return f;
}

ResultsFile load_results(const std::string& path) { return parse_results(read_record(path), path); }

std::string format_size(double n) {
  const double l = std::log2(n);
  if (n >= 1 && l == std::floor(l)) return "2^" + std::to_string(static_cast<int>(l));
  std::ostringstream s;
  s << static_cast<long long>(n);
  return s.str();
}

std::vector<Series> build_series(const std::vector<ResultsFile>& files) {
  // Series in the order of first appearance: the order a bench file lists the ladder in.
  std::vector<Series> lessons;
  std::map<double, SeriesPoint> ceiling, cub;
  for (const auto& f : files) {
    for (const auto& run : f.runs) {
      if (!run.gbps) continue;
      auto found = std::find_if(lessons.begin(), lessons.end(), [&](const Series& s) {
        return s.lesson == run.lesson && s.variant == run.variant;
      });
      if (found == lessons.end()) {
        lessons.emplace_back();
        found = lessons.end() - 1;
      }
      Series& s = *found;
      s.kind = SeriesKind::lesson;
      s.lesson = run.lesson;
      s.variant = run.variant;
      char num[8];
      std::snprintf(num, sizeof num, "%02d", run.lesson);
      s.label =
          std::string(num) + " " + run.slug + (run.variant.empty() ? "" : " / " + run.variant);
      s.title = run.title;
      SeriesPoint p;
      p.n = run.n;
      p.gbps = *run.gbps;
      p.pct_of_ceiling = run.pct_of_ceiling.value_or(-1);
      p.vs_cub = run.vs_cub.value_or(-1);
      p.median_ms = run.median_ms.value_or(-1);
      p.device_ms = run.device_ms.value_or(-1);
      p.launch = run.launch;
      p.launch_bound = run.launch_bound;
      p.verified = run.verified;
      p.block = run.block;
      auto it = std::find_if(s.points.begin(), s.points.end(),
                             [&](const SeriesPoint& q) { return q.n == p.n; });
      if (it != s.points.end())
        *it = p;
      else
        s.points.push_back(p);
    }
    for (const auto& b : f.baselines) {
      if (b.stream_read_gbps) ceiling[b.n] = {b.n, *b.stream_read_gbps, 100, -1, -1, true};
      if (b.cub_gbps) cub[b.n] = {b.n, *b.cub_gbps, -1, 1, -1, true};
    }
  }
  std::vector<Series> out;
  for (auto& s : lessons) {
    std::sort(s.points.begin(), s.points.end(),
              [](const SeriesPoint& a, const SeriesPoint& b) { return a.n < b.n; });
    out.push_back(std::move(s));
  }
  auto add = [&](SeriesKind kind, const char* label, const char* title,
                 const std::map<double, SeriesPoint>& pts) {
    if (pts.empty()) return;
    Series s;
    s.kind = kind;
    s.label = label;
    s.title = title;
    for (const auto& [n, p] : pts) s.points.push_back(p);
    out.push_back(std::move(s));
  };
  add(SeriesKind::ceiling, "ceiling (stream read)",
      "Streaming read of the same n: the memory ceiling", ceiling);
  add(SeriesKind::cub, "CUB", "cub::DeviceReduce::Sum", cub);
  return out;
}

std::string RunResults::label() const {
  std::string s = device;
  if (!scaling.empty() && series.empty()) s += " x" + std::to_string(max_gpus) + " (several GPUs)";
  // "2026-11-23T17:50:26Z" -> "2026-11-23 17:50 UTC"
  if (created_utc.size() >= 16)
    s += ", " + created_utc.substr(0, 10) + " " + created_utc.substr(11, 5) + " UTC";
  return s + "  (" + std::filesystem::path(file).filename().string() + ")";
}

std::vector<RunResults> group_by_run(const std::vector<ResultsFile>& files) {
  std::vector<RunResults> out;
  for (const auto& f : files) {
    RunResults r;
    r.device = f.device.empty() ? (f.backend.empty() ? "unknown device" : f.backend) : f.device;
    r.created_utc = f.created_utc;
    r.peak = f.theoretical_gbps;
    r.file = f.path;
    ResultsFile single = f;
    single.runs.clear();
    for (const auto& run : f.runs) {
      if (run.gpus == 0) {
        single.runs.push_back(run);
        continue;
      }
      if (!run.gbps) continue;
      ScalingPoint p;
      p.gpus = run.gpus;
      p.n = run.n;
      p.gbps = *run.gbps;
      p.efficiency = run.scaling_efficiency.value_or(-1);
      p.verified = run.verified;
      auto at = std::find_if(r.scaling.begin(), r.scaling.end(),
                             [&](const ScalingPoint& q) { return q.gpus == p.gpus; });
      if (at != r.scaling.end())
        *at = p;
      else
        r.scaling.push_back(p);
      r.max_gpus = std::max(r.max_gpus, p.gpus);
    }
    r.series = build_series({single});
    std::sort(r.scaling.begin(), r.scaling.end(),
              [](const ScalingPoint& a, const ScalingPoint& b) { return a.gpus < b.gpus; });
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<double> sizes_of(const std::vector<Series>& series) {
  std::vector<double> out;
  for (const auto& s : series) {
    if (s.kind != SeriesKind::lesson) continue;
    for (const auto& p : s.points) out.push_back(p.n);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Bar> bars_at(const std::vector<Series>& series, double n, bool include_variants) {
  auto at = [&](const Series& s) -> const SeriesPoint* {
    for (const auto& p : s.points) {
      if (p.n == n) return &p;
    }
    return nullptr;
  };
  double base = 0, ceil = 0;
  for (const auto& s : series) {
    const SeriesPoint* p = at(s);
    if (!p) continue;
    if (s.kind == SeriesKind::lesson && s.lesson == 1 && s.variant.empty()) base = p->gbps;
    if (s.kind == SeriesKind::ceiling) ceil = p->gbps;
  }
  std::vector<Bar> out;
  for (const auto& s : series) {
    if (s.kind != SeriesKind::lesson || (!include_variants && !s.variant.empty())) continue;
    const SeriesPoint* p = at(s);
    if (!p) continue;
    Bar b;
    b.label = s.label;
    b.title = s.title;
    b.gbps = p->gbps;
    b.speedup = base > 0 ? p->gbps / base : 0;
    b.pct_of_ceiling =
        p->pct_of_ceiling >= 0 ? p->pct_of_ceiling : (ceil > 0 ? 100.0 * p->gbps / ceil : 0);
    b.median_ms = p->median_ms;
    b.device_ms = p->device_ms;
    b.launch = p->launch;
    b.launch_bound = p->launch_bound;
    out.push_back(std::move(b));
  }
  return out;
}

namespace {
std::string micro(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f us", ms * 1000.0);
  return buf;
}
}  // namespace

std::string bar_times_text(const Bar& b) {
  std::string out;
  if (b.median_ms >= 0)
    out += "\n" + micro(b.median_ms) + " a call" +
           (b.launch.empty() ? "" : " (launched " + b.launch + ")");
  if (b.device_ms >= 0) out += "\ndevice time " + micro(b.device_ms) + ", a call alone";
  if (b.launch_bound) out += "\nlaunch-bound: the host's launches set the time, not the GPU";
  return out;
}

}  // namespace rl::viewer

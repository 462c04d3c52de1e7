#include "viewer/tables_model.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace rl::viewer {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  std::string line = name + ": " + what;
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  throw ResultsError(line.size() > 300 ? line.substr(0, 300) + "..." : line);
}

std::optional<double> number(const json& o, const char* key, const std::string& name,
                             const std::string& where) {
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    fail(name, where + key + " must be a finite number");
  return it->get<double>();
}

// "4096x4096" from [4096, 4096]; "{0,2}" from [0, 2].
std::string joined(const json& a, const char* sep, const char* open, const char* close) {
  std::string s = open;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number_integer()) return "?";
    s += (i ? sep : "") + std::to_string(a[i].get<long long>());
  }
  return s + close;
}

// What this run reduced, from whichever of these fields it has, in this order.
std::string label_of(const json& run) {
  std::string label;
  auto add = [&](const std::string& part) { label += (label.empty() ? "" : " ") + part; };
  // reducelab.beyond's runs name their lesson ("19_row_reduce"): its number starts the label.
  if (const auto it = run.find("lesson"); it != run.end() && it->is_string()) {
    const std::string lesson = it->get<std::string>();
    if (!lesson.empty()) add(lesson.substr(0, lesson.find('_')));
  }
  for (const char* key : {"op", "dtype", "variant", "strategy"}) {
    const auto it = run.find(key);
    if (it != run.end() && it->is_string() && !it->get<std::string>().empty())
      add(it->get<std::string>());
  }
  if (const auto it = run.find("shape"); it != run.end() && it->is_array())
    add(joined(*it, "x", "", ""));
  for (const char* key : {"axes", "dims"})
    if (const auto it = run.find(key); it != run.end() && it->is_array())
      add(std::string(key) + " " + joined(*it, ",", "{", "}"));
  return label.empty() ? "run" : label;
}

}  // namespace

bool looks_like_lesson_tables(std::string_view text) {
  const auto at = text.find("\"reducelab.");
  return at != std::string_view::npos &&
         text.find("\"reducelab.results\"") == std::string_view::npos &&
         text.find("\"reducelab.trace\"") == std::string_view::npos;
}

namespace {

// "19_row_reduce" -> 14; 0 when it does not start with a number.
int lesson_number(const std::string& s) {
  int n = 0;
  std::size_t i = 0;
  for (; i < s.size() && i < 3 && s[i] >= '0' && s[i] <= '9'; ++i) n = n * 10 + (s[i] - '0');
  return i > 0 ? n : 0;
}

LessonTable table_from(const json& doc, const std::string& name) {
  if (!doc.is_object()) fail(name, "the top level must be an object");
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string()) fail(name, "missing field 'schema'");
  LessonTable f;
  f.path = name;
  f.schema = schema->get<std::string>();
  if (!f.schema.starts_with("reducelab.") || f.schema == "reducelab.results" ||
      f.schema == "reducelab.trace")
    fail(name, "schema \"" + f.schema + "\" is not a lesson table");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<long long>() != 1)
    fail(name, "only version 1 is understood");
  if (const auto d = doc.find("device"); d != doc.end() && d->is_object()) {
    if (const auto n = d->find("name"); n != d->end() && n->is_string())
      f.device = n->get<std::string>();
  }
  if (const auto b = doc.find("backend"); b != doc.end() && b->is_string())
    f.backend = b->get<std::string>();
  const auto runs = doc.find("runs");
  if (runs == doc.end() || !runs->is_array()) fail(name, "runs must be an array");
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const json& run = (*runs)[i];
    const std::string where = "run " + std::to_string(i) + ": ";
    if (!run.is_object()) fail(name, where + "must be an object");
    ComparisonRow row;
    row.label = label_of(run);
    row.gbps = number(run, "gbps", name, where);
    if (row.gbps && *row.gbps < 0) fail(name, where + "gbps must not be negative");
    row.pct_of_sum = number(run, "pct_of_sum", name, where);
    row.vs_cub = number(run, "vs_cub", name, where);
    row.vs_torch = number(run, "vs_torch", name, where);
    row.vs_best = number(run, "vs_best", name, where);
    const auto v = run.find("verified");
    row.verified = v != run.end() && v->is_boolean() && v->get<bool>();
    f.rows.push_back(std::move(row));
  }
  if (const auto l = doc.find("lesson"); l != doc.end() && l->is_string())
    f.lesson = lesson_number(l->get<std::string>());
  if (f.lesson == 0) {
    const auto axis = doc.find("axis");
    const std::string a = axis != doc.end() && axis->is_string() ? axis->get<std::string>() : "";
    if (f.schema == "reducelab.ops")
      f.lesson = 18;
    else if (f.schema == "reducelab.matrix" && a == "rows")
      f.lesson = 19;
    else if (f.schema == "reducelab.matrix" && a == "columns")
      f.lesson = 20;
    else if (f.schema == "reducelab.axes")
      f.lesson = 21;
  }
  return f;
}

}  // namespace

LessonTable parse_lesson_table(std::string_view text, const std::string& name) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    fail(name, std::string("not valid JSON: ") + e.what());
  }
  return table_from(doc, name);
}

std::vector<LessonTable> parse_lesson_tables(std::string_view text, const std::string& name) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    fail(name, std::string("not valid JSON: ") + e.what());
  }
  std::vector<LessonTable> out;
  const auto lessons = doc.is_object() ? doc.find("lessons") : doc.end();
  if (!doc.is_object() || lessons == doc.end() || !lessons->is_object()) {
    out.push_back(table_from(doc, name));
    return out;
  }
  table_from(doc, name);  // the merged record itself must be well formed
  for (const auto& [key, part] : lessons->items()) {
    if (!part.is_object()) fail(name, "lessons." + key + " must be an object");
    LessonTable f = table_from(part, name + " (" + key + ")");
    f.path = name;
    f.part = key;
    if (f.lesson == 0) f.lesson = lesson_number(key);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<const LessonTable*> unique_tables(const std::vector<LessonTable>& tables) {
  auto same = [](const LessonTable& a, const LessonTable& b) {
    if (a.schema != b.schema || a.device != b.device || a.rows.size() != b.rows.size())
      return false;
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      if (a.rows[i].gbps != b.rows[i].gbps || a.rows[i].verified != b.rows[i].verified)
        return false;
    }
    return true;
  };
  std::vector<const LessonTable*> out;
  for (const auto& t : tables) {
    if (std::none_of(out.begin(), out.end(), [&](const LessonTable* o) { return same(*o, t); }))
      out.push_back(&t);
  }
  std::stable_sort(out.begin(), out.end(), [](const LessonTable* a, const LessonTable* b) {
    const int la = a->lesson ? a->lesson : 1000, lb = b->lesson ? b->lesson : 1000;
    return la < lb;
  });
  return out;
}

}  // namespace rl::viewer

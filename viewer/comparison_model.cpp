#include "viewer/comparison_model.h"

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

std::optional<double> number(const json& o, const char* key, const std::string& name, const std::string& where) {
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>())) fail(name, where + key + " must be a finite number");
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
  // reducelab.beyond's runs name their lesson ("14_row_reduce"): its number starts the label.
  if (const auto it = run.find("lesson"); it != run.end() && it->is_string()) {
    const std::string lesson = it->get<std::string>();
    if (!lesson.empty()) add(lesson.substr(0, lesson.find('_')));
  }
  for (const char* key : {"op", "dtype", "variant", "strategy"}) {
    const auto it = run.find(key);
    if (it != run.end() && it->is_string() && !it->get<std::string>().empty()) add(it->get<std::string>());
  }
  if (const auto it = run.find("shape"); it != run.end() && it->is_array()) add(joined(*it, "x", "", ""));
  for (const char* key : {"axes", "dims"})
    if (const auto it = run.find(key); it != run.end() && it->is_array()) add(std::string(key) + " " + joined(*it, ",", "{", "}"));
  return label.empty() ? "run" : label;
}

}  // namespace

bool looks_like_comparison(std::string_view text) {
  const auto at = text.find("\"reducelab.");
  return at != std::string_view::npos && text.find("\"reducelab.results\"") == std::string_view::npos &&
         text.find("\"reducelab.trace\"") == std::string_view::npos;
}

ComparisonFile parse_comparison(std::string_view text, const std::string& name) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    fail(name, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) fail(name, "the top level must be an object");
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string()) fail(name, "missing field 'schema'");
  ComparisonFile f;
  f.path = name;
  f.schema = schema->get<std::string>();
  if (!f.schema.starts_with("reducelab.") || f.schema == "reducelab.results" || f.schema == "reducelab.trace")
    fail(name, "schema \"" + f.schema + "\" is not a lesson table");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<long long>() != 1)
    fail(name, "only version 1 is understood");
  if (const auto d = doc.find("device"); d != doc.end() && d->is_object()) {
    if (const auto n = d->find("name"); n != d->end() && n->is_string()) f.device = n->get<std::string>();
  }
  if (const auto b = doc.find("backend"); b != doc.end() && b->is_string()) f.backend = b->get<std::string>();
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
  return f;
}

}  // namespace rl::viewer

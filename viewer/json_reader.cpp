#include "viewer/json_reader.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rl::viewer {

using nlohmann::json;

void JsonReader::fail(const std::string& what) const {
  std::string line = name + ": " + what;
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  throw ResultsError(line);
}

json JsonReader::parse(std::string_view text) const {
  if (text.size() > (std::size_t{256} << 20)) fail("file is over the 256 MiB limit");
  int depth = 0;
  bool in_str = false, esc = false;
  for (char c : text) {  // refuse absurd nesting before the parser sees it
    if (in_str) {
      if (esc)
        esc = false;
      else if (c == '\\')
        esc = true;
      else if (c == '"')
        in_str = false;
    } else if (c == '"') {
      in_str = true;
    } else if (c == '[' || c == '{') {
      if (++depth > 64) fail("nesting deeper than 64 levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    fail("not valid JSON: " + what);
  }
}

void JsonReader::expect_schema(const json& doc, const std::string& schema) const {
  if (!doc.is_object()) fail("the top level must be an object");
  const std::string got = str(doc, "schema", "");
  if (got != schema) fail("schema is \"" + got + "\", not \"" + schema + "\"");
  const json& version = need(doc, "version", "");
  if (!version.is_number_integer() || version.get<std::int64_t>() != 1)
    fail("version is " + version.dump() + ", only version 1 is understood");
}

const json& JsonReader::need(const json& o, const char* key, const std::string& where) const {
  auto it = o.find(key);
  if (it == o.end()) {
    // "kernel 2: counters." + "x": "kernel 2: missing field 'counters.x'".
    const std::size_t colon = where.rfind(": ");
    const std::size_t cut = colon == std::string::npos ? 0 : colon + 2;
    const bool path = !where.empty() && where.back() == '.';
    fail(path ? where.substr(0, cut) + "missing field '" + where.substr(cut) + key + "'"
              : where + "missing field '" + key + "'");
  }
  return *it;
}

std::string JsonReader::str(const json& o, const char* key, const std::string& where) const {
  const json& v = need(o, key, where);
  if (!v.is_string()) fail(where + key + " must be a string");
  return v.get<std::string>();
}

std::string JsonReader::str_or(const json& o, const char* key, const std::string& fallback) const {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}

double JsonReader::num(const json& o, const char* key, const std::string& where) const {
  const json& v = need(o, key, where);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(where + key + " must be a finite number");
  return v.get<double>();
}

std::int64_t JsonReader::integer(const json& o, const char* key, const std::string& where,
                                 std::int64_t lo, std::int64_t hi) const {
  const double v = num(o, key, where);
  if (v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi))
    fail(where + key + " must be an integer " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<std::int64_t>(v);
}

std::optional<double> JsonReader::opt(const json& o, const char* key,
                                      const std::string& where) const {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    fail(where + key + " must be a finite number");
  return it->get<double>();
}

std::string read_record(const std::string& path) {
  const JsonReader r{path};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    r.fail(std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) r.fail("cannot open it");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace rl::viewer

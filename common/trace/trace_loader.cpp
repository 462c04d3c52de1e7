#include "common/trace/trace_loader.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rl {
namespace {

using nlohmann::json;

// Messages quote what the file says; keep them one printable ASCII line whatever the bytes.
std::string printable(std::string_view s, std::size_t max_len = 120) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (out.size() >= max_len) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string quote_name(std::string_view s) {
  std::string out = "\"";
  out += printable(s, 40);
  out += '"';
  return out;
}

const char* type_of(const json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number_float()) return "a fraction";
  return j.type_name();
}

class Checker {
 public:
  explicit Checker(const std::string& name) : name_(printable(name, 200)) {}

  [[noreturn]] void fail(const std::string& what) const { throw TraceError(name_ + ": " + printable(what, 300)); }

  const json& field(const json& obj, const char* key, const std::string& where) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(where + "missing field '" + key + "'");
    return *it;
  }

  std::int64_t integer(const json& j, const std::string& what, std::int64_t lo, std::int64_t hi) const {
    if (!j.is_number_integer()) fail(what + " must be an integer, not " + type_of(j));
    if (j.is_number_unsigned()) {
      const auto u = j.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi) || (lo > 0 && u < static_cast<std::uint64_t>(lo))) fail(what + " " + std::to_string(u) + " is out of range " + range(lo, hi));
      return static_cast<std::int64_t>(u);
    }
    const auto v = j.get<std::int64_t>();
    if (v < lo || v > hi) fail(what + " " + std::to_string(v) + " is out of range " + range(lo, hi));
    return v;
  }

  double number(const json& j, const std::string& what) const {
    if (!j.is_number()) fail(what + " must be a number, not " + type_of(j));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(what + " is not finite");
    return v;
  }

  std::string string(const json& j, const std::string& what) const {
    if (!j.is_string()) fail(what + " must be a string, not " + type_of(j));
    return j.get<std::string>();
  }

 private:
  static std::string range(std::int64_t lo, std::int64_t hi) {
    std::string out = "[";
    out += std::to_string(lo);
    out += ", ";
    out += std::to_string(hi);
    out += ']';
    return out;
  }
  std::string name_;
};

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr std::int64_t kIndexMax = std::int64_t{1} << 40;

// Cheap pass over the raw text: refuses nesting deeper than any trace needs before the parser
// builds (and later tears down) a deep tree.
void check_depth(std::string_view text, const Checker& c) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > kMaxTraceDepth) c.fail("nesting deeper than " + std::to_string(kMaxTraceDepth) + " levels");
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
}

Space space_of(const json& j, const Trace& t, const Checker& c, const std::string& what, bool allow_none) {
  const std::string s = c.string(j, what);
  if (s == "shared") return {SpaceKind::shared, -1};
  if (s == "register") return {SpaceKind::reg, -1};
  if (s.empty() && allow_none) return {SpaceKind::none, -1};
  for (std::size_t i = 0; i < t.buffers.size(); ++i) {
    if (t.buffers[i] == s) return {SpaceKind::buffer, static_cast<int>(i)};
  }
  c.fail(what + " " + quote_name(s) + " is not shared, register or a name in buffers");
}

EventKind kind_of(const json& j, const Checker& c, const std::string& what) {
  const std::string s = c.string(j, what);
  static constexpr EventKind kinds[] = {EventKind::load,  EventKind::combine, EventKind::shuffle,
                                        EventKind::store, EventKind::atomic,  EventKind::barrier};
  for (EventKind k : kinds) {
    if (s == to_string(k)) return k;
  }
  c.fail(what + " " + quote_name(s) + " is not one of load, combine, shuffle, store, atomic, barrier");
}

void read_header(const json& doc, Trace& t, const Checker& c) {
  auto f = [&](const char* key) -> const json& { return c.field(doc, key, ""); };
  t.schema = c.string(f("schema"), "schema");
  if (t.schema != "reducelab.trace") c.fail("schema is " + quote_name(t.schema) + ", not \"reducelab.trace\"");
  const json& v = f("version");
  if (!v.is_number_integer() || !(v.is_number_unsigned() ? v.get<std::uint64_t>() == 1 : v.get<std::int64_t>() == 1)) {
    c.fail("version is " + printable(v.dump(), 40) + ", only version 1 is understood");
  }
  t.version = 1;
  t.lesson = static_cast<int>(c.integer(f("lesson"), "lesson", 0, 1000));
  t.slug = c.string(f("slug"), "slug");
  t.title = c.string(f("title"), "title");
  t.variant = c.string(f("variant"), "variant");
  t.backend = c.string(f("backend"), "backend");
  if (t.backend != "gpu" && t.backend != "sim") c.fail("backend " + quote_name(t.backend) + " is not \"gpu\" or \"sim\"");
  t.device = c.string(f("device"), "device");
  t.source = c.string(f("source"), "source");
  t.n = c.integer(f("n"), "n", 1, kIndexMax);
  t.block = static_cast<int>(c.integer(f("block"), "block", 1, 1024));

  const json& input = f("input");
  if (!input.is_array()) c.fail(std::string("input must be an array, not ") + type_of(input));
  if (static_cast<std::int64_t>(input.size()) != t.n) {
    c.fail("input has " + std::to_string(input.size()) + " numbers, n says " + std::to_string(t.n));
  }
  t.input.reserve(input.size());
  for (std::size_t i = 0; i < input.size(); ++i) t.input.push_back(c.number(input[i], "input[" + std::to_string(i) + "]"));
  t.result = c.number(f("result"), "result");

  const json& buffers = f("buffers");
  if (!buffers.is_array()) c.fail(std::string("buffers must be an array, not ") + type_of(buffers));
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    std::string b = c.string(buffers[i], "buffers[" + std::to_string(i) + "]");
    if (b.empty() || b == "shared" || b == "register") c.fail("buffers[" + std::to_string(i) + "] " + quote_name(b) + " is not a usable name");
    for (const auto& other : t.buffers) {
      if (other == b) c.fail("buffers[" + std::to_string(i) + "] " + quote_name(b) + " is named twice");
    }
    t.buffers.push_back(std::move(b));
  }

  const json& launches = f("launches");
  if (!launches.is_array()) c.fail(std::string("launches must be an array, not ") + type_of(launches));
  if (launches.empty()) c.fail("launches is empty");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const std::string where = "launch " + std::to_string(i) + ": ";
    const json& l = launches[i];
    if (!l.is_object()) c.fail(where + "must be an object, not " + type_of(l));
    Launch launch;
    launch.kernel = c.string(c.field(l, "kernel", where), where + "kernel");
    launch.grid = static_cast<int>(c.integer(c.field(l, "grid", where), where + "grid", 1, kIntMax));
    launch.block = static_cast<int>(c.integer(c.field(l, "block", where), where + "block", 1, 1024));
    // FORMAT.md shows a per-launch n; the lessons' writers leave it out, so it is optional.
    if (auto it = l.find("n"); it != l.end()) launch.n = c.integer(*it, where + "n", 0, kIndexMax);
    t.launches.push_back(std::move(launch));
  }

  t.capacity = c.integer(f("capacity"), "capacity", 0, kIndexMax);
  const json& overflow = f("overflow");
  if (!overflow.is_boolean()) c.fail(std::string("overflow must be a boolean, not ") + type_of(overflow));
  t.overflow = overflow.get<bool>();
}

std::int64_t bounded_index(const json& j, Space space, const Event& e, const Trace& t, const Checker& c,
                           const std::string& where, const char* what) {
  if (space.kind == SpaceKind::none) {
    c.integer(j, where + what, -1, -1);
    return -1;
  }
  const std::int64_t idx = c.integer(j, where + what, std::numeric_limits<std::int64_t>::min(), kIndexMax);
  if (idx < 0) c.fail(where + what + " " + std::to_string(idx) + " is negative");
  const Launch& l = t.launches[static_cast<std::size_t>(e.launch)];
  if ((space.kind == SpaceKind::shared || space.kind == SpaceKind::reg) && idx >= l.block) {
    c.fail(where + what + " " + std::to_string(idx) + " is outside launch " + std::to_string(e.launch) + "'s block of " +
           std::to_string(l.block));
  }
  if (space.kind == SpaceKind::buffer && space.buffer == t.input_buffer() && idx >= t.n) {
    c.fail(where + what + " " + std::to_string(idx) + " is outside input of n = " + std::to_string(t.n));
  }
  return idx;
}

void read_events(const json& doc, Trace& t, const Checker& c) {
  const json& events = c.field(doc, "events", "");
  if (!events.is_array()) c.fail(std::string("events must be an array, not ") + type_of(events));
  if (static_cast<std::int64_t>(events.size()) > t.capacity) {
    c.fail("events has " + std::to_string(events.size()) + " entries, more than capacity " + std::to_string(t.capacity));
  }
  t.events.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string where = "event " + std::to_string(i) + ": ";
    const json& a = events[i];
    if (!a.is_array()) c.fail(where + "must be an array, not " + type_of(a));
    if (a.size() != 11) c.fail(where + "has " + std::to_string(a.size()) + " fields, not 11");
    Event e;
    const std::int64_t launch = c.integer(a[0], where + "launch", 0, kIntMax);
    if (launch >= static_cast<std::int64_t>(t.launches.size())) {
      c.fail(where + "launch " + std::to_string(launch) + " does not exist (" + std::to_string(t.launches.size()) +
             " launches)");
    }
    e.launch = static_cast<int>(launch);
    const Launch& l = t.launches[static_cast<std::size_t>(e.launch)];
    e.step = static_cast<int>(c.integer(a[1], where + "step", 0, kIntMax));
    e.kind = kind_of(a[2], c, where + "kind");
    const std::int64_t block = c.integer(a[3], where + "block", 0, kIntMax);
    if (block >= l.grid) {
      c.fail(where + "block " + std::to_string(block) + " is outside launch " + std::to_string(e.launch) + "'s grid of " +
             std::to_string(l.grid));
    }
    e.block = static_cast<int>(block);
    const bool barrier = e.kind == EventKind::barrier;
    const std::int64_t thread = c.integer(a[4], where + "thread", -1, kIntMax);
    if (thread == -1 && !barrier) c.fail(where + "thread -1 is only for barriers");
    if (thread >= l.block) {
      c.fail(where + "thread " + std::to_string(thread) + " is outside launch " + std::to_string(e.launch) +
             "'s block of " + std::to_string(l.block));
    }
    e.thread = static_cast<int>(thread);
    e.dst.space = space_of(a[5], t, c, where + "dst_space", barrier);
    e.dst.index = bounded_index(a[6], e.dst.space, e, t, c, where, "dst_index");
    e.src.space = space_of(a[7], t, c, where + "src_space", barrier);
    e.src.index = bounded_index(a[8], e.src.space, e, t, c, where, "src_index");
    e.value = c.number(a[9], where + "value");
    e.line = static_cast<int>(c.integer(a[10], where + "line", 0, kIntMax));
    t.events.push_back(e);
  }
}

}  // namespace

Trace parse_trace(std::string_view text, const std::string& name) {
  const Checker c(name);
  if (text.size() > kMaxTraceBytes) {
    c.fail("file of " + std::to_string(text.size()) + " bytes is over the " + std::to_string(kMaxTraceBytes >> 20) +
           " MiB limit");
  }
  check_depth(text, c);
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (auto p = what.find("] "); what.rfind("[json.exception", 0) == 0 && p != std::string::npos) what = what.substr(p + 2);
    c.fail("not valid JSON: " + what);
  }
  if (!doc.is_object()) c.fail(std::string("the top level must be an object, not ") + type_of(doc));
  Trace t;
  t.name = name;
  try {
    read_header(doc, t, c);
    read_events(doc, t, c);
  } catch (const json::exception& e) {  // not expected after the type checks; still one line
    c.fail(std::string("unexpected JSON content: ") + e.what());
  }
  t.dag = build_dag(t);
  return t;
}

Trace load_trace(const std::string& path) {
  const Checker c(path);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) c.fail("no such file");
  if (!std::filesystem::is_regular_file(status)) c.fail("not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) c.fail("cannot read its size: " + ec.message());
  if (size > kMaxTraceBytes) {
    c.fail("file of " + std::to_string(size) + " bytes is over the " + std::to_string(kMaxTraceBytes >> 20) + " MiB limit");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) c.fail("cannot open it");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size)) c.fail("cannot read it");
  return parse_trace(text, path);
}

}  // namespace rl

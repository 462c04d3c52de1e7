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

  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(name_ + ": " + printable(what, 300));
  }

  const json& field(const json& obj, const char* key, const std::string& where) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(where + "missing field '" + key + "'");
    return *it;
  }

  std::int64_t integer(const json& j, const std::string& what, std::int64_t lo,
                       std::int64_t hi) const {
    if (!j.is_number_integer()) fail(what + " must be an integer, not " + type_of(j));
    if (j.is_number_unsigned()) {
      const auto u = j.get<std::uint64_t>();
      // A range below zero ([-1, -1] for "no index") holds no unsigned value at all.
      if (hi < 0 || u > static_cast<std::uint64_t>(hi) ||
          (lo > 0 && u < static_cast<std::uint64_t>(lo))) {
        fail(what + " " + std::to_string(u) + " is out of range " + range(lo, hi));
      }
      return static_cast<std::int64_t>(u);
    }
    const auto v = j.get<std::int64_t>();
    if (v < lo || v > hi)
      fail(what + " " + std::to_string(v) + " is out of range " + range(lo, hi));
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
      if (++depth > kMaxTraceDepth)
        c.fail("nesting deeper than " + std::to_string(kMaxTraceDepth) + " levels");
    } else if (ch == ']' || ch == '}') {
      --depth;
    }
  }
}

// Where a destination went: shared, register or a buffer; "" only for barriers (checked by the
// caller).
Space dst_space_of(const json& j, const Trace& t, const Checker& c, const std::string& what) {
  const std::string s = c.string(j, what);
  if (s == "shared") return {SpaceKind::shared, -1};
  if (s == "register") return {SpaceKind::reg, -1};
  if (s.empty()) return {SpaceKind::none, -1};
  for (std::size_t i = 0; i < t.buffers.size(); ++i) {
    if (t.buffers[i] == s) return {SpaceKind::buffer, static_cast<int>(i)};
  }
  c.fail(what + " " + quote_name(s) + " is not shared, register or a name in buffers");
}

// Where an operand came from: nothing, a constant, an earlier event (a register value), shared
// memory or a buffer. A register is never an operand: its value is named by the event that made it.
Space operand_space_of(const json& j, const Trace& t, const Checker& c, const std::string& what) {
  const std::string s = c.string(j, what);
  if (s.empty()) return {SpaceKind::none, -1};
  if (s == "const") return {SpaceKind::constant, -1};
  if (s == "event") return {SpaceKind::event, -1};
  if (s == "shared") return {SpaceKind::shared, -1};
  for (std::size_t i = 0; i < t.buffers.size(); ++i) {
    if (t.buffers[i] == s) return {SpaceKind::buffer, static_cast<int>(i)};
  }
  c.fail(what + " " + quote_name(s) + " is not \"\", const, event, shared or a name in buffers");
}

EventKind kind_of(const json& j, const Checker& c, const std::string& what) {
  const std::string s = c.string(j, what);
  static constexpr EventKind kinds[] = {
      EventKind::load,   EventKind::store,   EventKind::combine,     EventKind::shuffle,
      EventKind::atomic, EventKind::barrier, EventKind::warp_barrier};
  for (EventKind k : kinds) {
    if (s == to_string(k)) return k;
  }
  c.fail(what + " " + quote_name(s) +
         " is not one of load, store, combine, shuffle, atomic, barrier, warp_barrier");
}

// A recorded value: a number, or null where it was not a finite number (NaN in the model).
double value_of(const json& j, const Checker& c, const std::string& what) {
  if (j.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!j.is_number()) c.fail(what + " must be a number or null, not " + type_of(j));
  return c.number(j, what);
}

void read_header(const json& doc, Trace& t, const Checker& c) {
  auto f = [&](const char* key) -> const json& { return c.field(doc, key, ""); };
  t.schema = c.string(f("schema"), "schema");
  if (t.schema != "reducelab.trace")
    c.fail("schema is " + quote_name(t.schema) + ", not \"reducelab.trace\"");
  const json& v = f("version");
  auto is = [&](std::int64_t want) {
    return v.is_number_integer() &&
           (v.is_number_unsigned() ? v.get<std::uint64_t>() == static_cast<std::uint64_t>(want)
                                   : v.get<std::int64_t>() == want);
  };
  // Version 1 carried a step per event that the kernels counted themselves; its files cannot be
  // turned into version 2's operands, so the only way forward is to record them again.
  if (is(1))
    c.fail(
        "trace format version 1 is no longer read; record it again with the lesson's --trace FILE");
  if (!is(2)) c.fail("version is " + printable(v.dump(), 40) + ", only version 2 is understood");
  t.version = 2;
  t.lesson = static_cast<int>(c.integer(f("lesson"), "lesson", 0, 1000));
  t.slug = c.string(f("slug"), "slug");
  t.title = c.string(f("title"), "title");
  t.variant = c.string(f("variant"), "variant");
  t.backend = c.string(f("backend"), "backend");
  if (t.backend != "gpu" && t.backend != "sim")
    c.fail("backend " + quote_name(t.backend) + " is not \"gpu\" or \"sim\"");
  t.device = c.string(f("device"), "device");
  t.source = c.string(f("source"), "source");
  t.n = c.integer(f("n"), "n", 1, kIndexMax);
  t.block = static_cast<int>(c.integer(f("block"), "block", 1, 1024));
  const json& seed = f("seed");
  if (!seed.is_number_integer())
    c.fail(std::string("seed must be an integer, not ") + type_of(seed));
  if (!seed.is_number_unsigned() && seed.get<std::int64_t>() < 0)
    c.fail("seed " + seed.dump() + " is negative");
  t.seed = seed.get<std::uint64_t>();
  t.distribution = c.string(f("distribution"), "distribution");

  const json& input = f("input");
  if (!input.is_array()) c.fail(std::string("input must be an array, not ") + type_of(input));
  if (static_cast<std::int64_t>(input.size()) != t.n) {
    c.fail("input has " + std::to_string(input.size()) + " numbers, n says " + std::to_string(t.n));
  }
  t.input.reserve(input.size());
  for (std::size_t i = 0; i < input.size(); ++i)
    t.input.push_back(c.number(input[i], "input[" + std::to_string(i) + "]"));
  // A wrong kernel may well produce NaN, which JSON writes as null.
  t.result = value_of(f("result"), c, "result");

  const json& buffers = f("buffers");
  if (!buffers.is_array()) c.fail(std::string("buffers must be an array, not ") + type_of(buffers));
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    std::string b = c.string(buffers[i], "buffers[" + std::to_string(i) + "]");
    if (b.empty() || b == "shared" || b == "register" || b == "const" || b == "event") {
      c.fail("buffers[" + std::to_string(i) + "] " + quote_name(b) + " is not a usable name");
    }
    for (const auto& other : t.buffers) {
      if (other == b)
        c.fail("buffers[" + std::to_string(i) + "] " + quote_name(b) + " is named twice");
    }
    t.buffers.push_back(std::move(b));
  }

  const json& launches = f("launches");
  if (!launches.is_array())
    c.fail(std::string("launches must be an array, not ") + type_of(launches));
  if (launches.empty()) c.fail("launches is empty");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const std::string where = "launch " + std::to_string(i) + ": ";
    const json& l = launches[i];
    if (!l.is_object()) c.fail(where + "must be an object, not " + type_of(l));
    Launch launch;
    launch.kernel = c.string(c.field(l, "kernel", where), where + "kernel");
    launch.grid =
        static_cast<int>(c.integer(c.field(l, "grid", where), where + "grid", 1, kIntMax));
    launch.block =
        static_cast<int>(c.integer(c.field(l, "block", where), where + "block", 1, 1024));
    // FORMAT.md shows no per-launch n; hand-written and synthetic traces may say it, so it is
    // optional.
    if (auto it = l.find("n"); it != l.end()) launch.n = c.integer(*it, where + "n", 0, kIndexMax);
    t.launches.push_back(std::move(launch));
  }

  const json& barriers = f("barriers");
  if (!barriers.is_boolean())
    c.fail(std::string("barriers must be a boolean, not ") + type_of(barriers));
  t.barriers = barriers.get<bool>();
  t.capacity = c.integer(f("capacity"), "capacity", 0, kIndexMax);
  const json& overflow = f("overflow");
  if (!overflow.is_boolean())
    c.fail(std::string("overflow must be a boolean, not ") + type_of(overflow));
  t.overflow = overflow.get<bool>();
}

// A destination's index, in bounds for its space.
std::int64_t dst_index_of(const json& j, const Event& e, const Trace& t, const Checker& c,
                          const std::string& where) {
  const std::string what = where + "dst_index";
  if (e.kind == EventKind::barrier) return c.integer(j, what, -1, -1);
  if (e.kind == EventKind::warp_barrier) {
    const std::int64_t mask =
        c.integer(j, what, std::numeric_limits<std::int64_t>::min(), kIndexMax);
    if (mask <= 0 || mask > 0xffffffffLL)
      c.fail(what + " " + std::to_string(mask) + " is not a mask of 1 to 32 lanes");
    return mask;
  }
  const std::int64_t idx = c.integer(j, what, std::numeric_limits<std::int64_t>::min(), kIndexMax);
  if (idx < 0) c.fail(what + " " + std::to_string(idx) + " is negative");
  const Launch& l = t.launches[static_cast<std::size_t>(e.launch)];
  if (e.dst.space.kind == SpaceKind::reg && idx >= l.block) {
    c.fail(what + " " + std::to_string(idx) + " is outside launch " + std::to_string(e.launch) +
           "'s block of " + std::to_string(l.block));
  }
  if (e.dst.space.kind == SpaceKind::buffer && e.dst.space.buffer == t.input_buffer() &&
      idx >= t.n) {
    c.fail(what + " " + std::to_string(idx) + " is outside input of n = " + std::to_string(t.n));
  }
  return idx;
}

// An operand's index, in bounds for its space; an event operand names an earlier event of the same
// block of the same launch (registers belong to one thread of one block) that made a value.
std::int64_t operand_index_of(const json& j, Space space, const Event& e, std::size_t self,
                              const Trace& t, const Checker& c, const std::string& what) {
  if (space.kind == SpaceKind::none || space.kind == SpaceKind::constant)
    return c.integer(j, what, -1, -1);
  const std::int64_t idx = c.integer(j, what, std::numeric_limits<std::int64_t>::min(), kIndexMax);
  if (idx < 0) c.fail(what + " " + std::to_string(idx) + " is negative");
  if (space.kind == SpaceKind::event) {
    if (idx >= static_cast<std::int64_t>(self)) {
      c.fail(what + " " + std::to_string(idx) + " is not an earlier event (this is event " +
             std::to_string(self) + ")");
    }
    const Event& src = t.events[static_cast<std::size_t>(idx)];
    if (is_barrier(src.kind))
      c.fail(what + " " + std::to_string(idx) + " names a " + std::string(to_string(src.kind)) +
             ", which makes no value");
    if (src.launch != e.launch || src.block != e.block) {
      c.fail(what + " " + std::to_string(idx) + " names an event of launch " +
             std::to_string(src.launch) + " block " + std::to_string(src.block) +
             ", not of this event's launch " + std::to_string(e.launch) + " block " +
             std::to_string(e.block));
    }
  }
  if (space.kind == SpaceKind::buffer && space.buffer == t.input_buffer() && idx >= t.n) {
    c.fail(what + " " + std::to_string(idx) + " is outside input of n = " + std::to_string(t.n));
  }
  return idx;
}

// Which operands each kind reads (FORMAT.md, "Kinds"): barriers none, load and store a alone,
// the additions a and b.
void check_operand_present(const Event& e, int which, const json& space, const Checker& c,
                           const std::string& where) {
  const bool present = (which == 0 ? e.a : e.b).present();
  const std::string field = which == 0 ? "a_space" : "b_space";
  const std::string kind(to_string(e.kind));
  const std::string shown = field + " is " + quote_name(space.get<std::string>());
  if (is_barrier(e.kind)) {
    if (present) c.fail(where + "a " + kind + " reads no operand, but " + shown);
  } else if (adds(e.kind)) {
    if (!present)
      c.fail(where + "a" + (e.kind == EventKind::atomic ? "n " : " ") + kind +
             " adds two operands, but " + shown);
  } else if (which == 0 && !present) {
    c.fail(where + "a " + kind + " reads operand a, but " + shown);
  } else if (which == 1 && present) {
    c.fail(where + "a " + kind + " reads one operand, but " + shown);
  }
}

void read_events(const json& doc, Trace& t, const Checker& c) {
  const json& events = c.field(doc, "events", "");
  if (!events.is_array()) c.fail(std::string("events must be an array, not ") + type_of(events));
  if (static_cast<std::int64_t>(events.size()) > t.capacity) {
    c.fail("events has " + std::to_string(events.size()) + " entries, more than capacity " +
           std::to_string(t.capacity));
  }
  t.events.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string where = "event " + std::to_string(i) + ": ";
    const json& a = events[i];
    if (!a.is_array()) c.fail(where + "must be an array, not " + type_of(a));
    if (a.size() != 14) c.fail(where + "has " + std::to_string(a.size()) + " fields, not 14");
    Event e;
    const std::int64_t launch = c.integer(a[0], where + "launch", 0, kIntMax);
    if (launch >= static_cast<std::int64_t>(t.launches.size())) {
      c.fail(where + "launch " + std::to_string(launch) + " does not exist (" +
             std::to_string(t.launches.size()) + " launches)");
    }
    e.launch = static_cast<int>(launch);
    // One stream: a launch starts after the previous one ended, and event order is time order.
    if (!t.events.empty() && e.launch < t.events.back().launch) {
      c.fail(where + "launch " + std::to_string(e.launch) + " comes after events of launch " +
             std::to_string(t.events.back().launch) + " (events are in launch order)");
    }
    const Launch& l = t.launches[static_cast<std::size_t>(e.launch)];
    e.kind = kind_of(a[1], c, where + "kind");
    const bool barrier = is_barrier(e.kind);
    if (barrier && !t.barriers)
      c.fail(where + "a " + std::string(to_string(e.kind)) + " in a trace whose barriers is false");
    const std::int64_t block = c.integer(a[2], where + "block", 0, kIntMax);
    if (block >= l.grid) {
      c.fail(where + "block " + std::to_string(block) + " is outside launch " +
             std::to_string(e.launch) + "'s grid of " + std::to_string(l.grid));
    }
    e.block = static_cast<int>(block);
    const std::int64_t thread = c.integer(a[3], where + "thread", -1, kIntMax);
    if (e.kind == EventKind::barrier && thread != -1)
      c.fail(where + "a barrier's thread must be -1, not " + std::to_string(thread));
    if (e.kind != EventKind::barrier && thread == -1)
      c.fail(where + "thread -1 is only for barriers");
    if (thread >= l.block) {
      c.fail(where + "thread " + std::to_string(thread) + " is outside launch " +
             std::to_string(e.launch) + "'s block of " + std::to_string(l.block));
    }
    if (e.kind == EventKind::warp_barrier && thread % 32 != 0) {
      c.fail(where + "a warp_barrier's thread must be its warp's lane 0, not " +
             std::to_string(thread));
    }
    e.thread = static_cast<int>(thread);

    e.dst.space = dst_space_of(a[4], t, c, where + "dst_space");
    if (barrier != (e.dst.space.kind == SpaceKind::none)) {
      c.fail(where + "dst_space " + quote_name(a[4].get<std::string>()) +
             (barrier ? " must be \"\" for a " + std::string(to_string(e.kind))
                      : std::string(" is only for barriers")));
    }
    const std::int64_t dst_index = dst_index_of(a[5], e, t, c, where);
    if (e.kind == EventKind::warp_barrier) {
      e.mask = static_cast<std::uint32_t>(dst_index);
    } else {
      e.dst.index = dst_index;
    }

    for (int k = 0; k < 2; ++k) {
      const std::string side = k == 0 ? "a" : "b";
      Operand& op = k == 0 ? e.a : e.b;
      const json& space = a[static_cast<std::size_t>(6 + 3 * k)];
      op.loc.space = operand_space_of(space, t, c, where + side + "_space");
      check_operand_present(e, k, space, c, where);
      op.loc.index = operand_index_of(a[static_cast<std::size_t>(7 + 3 * k)], op.loc.space, e, i, t,
                                      c, where + side + "_index");
      op.value = value_of(a[static_cast<std::size_t>(8 + 3 * k)], c, where + side + "_value");
    }
    e.value = value_of(a[12], c, where + "value");
    e.line = static_cast<int>(c.integer(a[13], where + "line", 0, kIntMax));
    t.events.push_back(e);
  }
}

}  // namespace

Trace parse_trace(std::string_view text, const std::string& name) {
  const Checker c(name);
  if (text.size() > kMaxTraceBytes) {
    c.fail("file of " + std::to_string(text.size()) + " bytes is over the " +
           std::to_string(kMaxTraceBytes >> 20) + " MiB limit");
  }
  check_depth(text, c);
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (auto p = what.find("] "); what.rfind("[json.exception", 0) == 0 && p != std::string::npos)
      what = what.substr(p + 2);
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
    c.fail("file of " + std::to_string(size) + " bytes is over the " +
           std::to_string(kMaxTraceBytes >> 20) + " MiB limit");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) c.fail("cannot open it");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.gcount() != static_cast<std::streamsize>(size)) c.fail("cannot read it");
  return parse_trace(text, path);
}

}  // namespace rl

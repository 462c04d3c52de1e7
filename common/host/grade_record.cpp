#include "common/host/grade_record.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rl {

std::string recorded_out(int pass, std::size_t plan, std::size_t index, float got) {
  char bits[16];
  std::snprintf(bits, sizeof bits, "%08x", std::bit_cast<std::uint32_t>(got));
  return "out " + std::to_string(pass) + " " + std::to_string(plan) + " " + std::to_string(index) +
         " " + bits;
}

std::string recorded_error(int pass, std::size_t plan, std::size_t index, const std::string& what) {
  return "error " + std::to_string(pass) + " " + std::to_string(plan) + " " +
         std::to_string(index) + " " + what;
}

std::string recorded_replay(unsigned launches, float got) {
  char bits[9];
  std::snprintf(bits, sizeof bits, "%08x", std::bit_cast<std::uint32_t>(got));
  return "replay " + std::to_string(launches) + " " + bits;
}

std::string recorded_held(double held_ms, double call_ms, float got) {
  char text[96];
  std::snprintf(text, sizeof text, "held %.3f %.3f %08x", held_ms, call_ms,
                std::bit_cast<std::uint32_t>(got));
  return text;
}

std::string recorded_queued(float first, float second, const std::string& error, int early_barriers,
                            bool early_waited) {
  if (!error.empty()) return "queued error " + error;
  char bits[20];
  std::snprintf(bits, sizeof bits, "%08x %08x", std::bit_cast<std::uint32_t>(first),
                std::bit_cast<std::uint32_t>(second));
  return std::string("queued ") + bits + " " +
         (early_barriers < 0 ? std::string("- -")
                             : std::to_string(early_barriers) + (early_waited ? " 1" : " 0"));
}

std::string recorded_bytes(int pass, std::size_t index, const std::vector<unsigned char>& raw) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string line = "bytes " + std::to_string(pass) + " " + std::to_string(index) + " ";
  line.reserve(line.size() + 2 * raw.size());
  for (const unsigned char b : raw) line += digits[b >> 4], line += digits[b & 15];
  if (raw.empty()) line += '-';  // no outputs (an empty reduction's), said as such
  return line;
}

namespace {

// A whole number of at most `max`, all of the word: nullopt otherwise.
std::optional<std::uint64_t> number(const std::string& word, std::uint64_t max, int base = 10) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v, base);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size() || v > max)
    return std::nullopt;
  return v;
}

// "out"/"error" PASS PLAN CASE, then the rest; false when out of format.
bool parse_case(std::istringstream& in, bool error, RecordedCase& c) {
  std::string pass, plan, index;
  if (!(in >> pass >> plan >> index)) return false;
  const auto p = number(pass, 2), l = number(plan, 1000), i = number(index, 100000);
  if (!p || !l || !i) return false;
  c.pass = static_cast<int>(*p), c.plan = *l, c.index = *i, c.error = error;
  std::string rest;
  std::getline(in >> std::ws, rest);
  if (error) {
    c.message = rest;
    return !rest.empty();
  }
  if (rest.size() != 8) return false;
  const auto bits = number(rest, 0xffffffffULL, 16);
  if (!bits) return false;
  c.bits = static_cast<std::uint32_t>(*bits);
  return true;
}

// "bytes" PASS CASE HEX; false when out of format.
bool parse_bytes(std::istringstream& in, RecordedCase& c) {
  std::string pass, index, hex;
  if (!(in >> pass >> index >> hex)) return false;
  const auto p = number(pass, 2), i = number(index, 100000);
  std::string more;
  if (!p || !i || (in >> more)) return false;
  c.pass = static_cast<int>(*p), c.plan = 0, c.index = *i, c.raw_given = true;
  if (hex == "-") return true;
  if (hex.size() % 2) return false;
  c.raw.reserve(hex.size() / 2);
  for (std::size_t k = 0; k < hex.size(); k += 2) {
    const auto byte = number(hex.substr(k, 2), 0xff, 16);
    if (!byte) return false;
    c.raw.push_back(static_cast<unsigned char>(*byte));
  }
  return true;
}

// "LAUNCHES BITS": lesson 15's replay figures.
bool parse_replay(const std::string& rest, Recorded& r) {
  std::istringstream in(rest);
  std::string launches, bits, extra;
  if (!(in >> launches >> bits) || (in >> extra) || bits.size() != 8) return false;
  const auto l = number(launches, 1000000), b = number(bits, 0xffffffffULL, 16);
  if (!l || !b) return false;
  r.replay = Recorded::Replay{static_cast<unsigned>(*l), static_cast<std::uint32_t>(*b)};
  return true;
}

// "HELD CALL BITS": lesson 16's held-stream figures, the two times in ms (plain decimals).
bool parse_held(const std::string& rest, Recorded& r) {
  std::istringstream in(rest);
  std::string held, call, bits, extra;
  if (!(in >> held >> call >> bits) || (in >> extra) || bits.size() != 8) return false;
  const auto ms = [](const std::string& word) -> std::optional<double> {
    if (word.empty() || word.size() > 16 ||
        word.find_first_not_of("0123456789.") != std::string::npos)
      return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(word.c_str(), &end);
    if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
    return v;
  };
  const auto h = ms(held), c = ms(call);
  const auto b = number(bits, 0xffffffffULL, 16);
  if (!h || !c || !b) return false;
  r.held = Recorded::Held{*h, *c, static_cast<std::uint32_t>(*b)};
  return true;
}

// "BITS BITS" or "error TEXT": the queued calls' figures.
bool parse_queued(const std::string& rest, Recorded& r) {
  if (rest.rfind("error ", 0) == 0) {
    if (rest.size() == 6) return false;
    r.queued.push_back(Recorded::Queued{0, 0, rest.substr(6)});
    return true;
  }
  std::istringstream in(rest);
  std::string first, second, barriers, waited, extra;
  if (!(in >> first >> second >> barriers >> waited) || (in >> extra) || first.size() != 8 ||
      second.size() != 8)
    return false;
  const auto a = number(first, 0xffffffffULL, 16), b = number(second, 0xffffffffULL, 16);
  if (!a || !b) return false;
  Recorded::Queued q{static_cast<std::uint32_t>(*a), static_cast<std::uint32_t>(*b), "", -1, false};
  if (barriers != "-" || waited != "-") {
    const auto n = number(barriers, 1000000), w = number(waited, 1);
    if (!n || !w) return false;
    q.early_barriers = static_cast<int>(*n), q.early_waited = *w == 1;
  }
  r.queued.push_back(q);
  return true;
}

bool parse_end(const std::string& rest) {
  if (rest == "silent") return true;
  std::istringstream in(rest);
  std::string how, code, more;
  in >> how >> code;
  return (how == "exit" || how == "signal") && number(code, 255) && !(in >> more);
}

}  // namespace

Recorded read_recorded(const std::string& path, std::size_t max_bytes) {
  Recorded r;
  std::ifstream file(path, std::ios::binary);
  if (!file) return r;
  std::string text(max_bytes + 1, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(file.gcount()));
  if (text.size() > max_bytes) {
    r.malformed = "more than " + std::to_string(max_bytes) + " bytes";
    return r;
  }
  std::istringstream lines(text);
  std::string line;
  for (std::size_t number_of_line = 1; std::getline(lines, line); ++number_of_line) {
    const auto bad = [&](const std::string& why) {
      r.malformed =
          "line " + std::to_string(number_of_line) + " " + why + ": '" + line.substr(0, 80) + "'";
    };
    for (const char ch : line)
      if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t') {
        bad("holds a control character");
        return r;
      }
    std::istringstream in(line);
    std::string word;
    in >> word;
    std::string rest;
    if (!r.end.empty()) {
      bad("comes after the end line");
      return r;
    }
    if (word == "out" || word == "error") {
      RecordedCase c;
      if (!parse_case(in, word == "error", c)) {
        bad("is not '" + word + " PASS PLAN CASE " + (word == "out" ? "BITS'" : "TEXT'"));
        return r;
      }
      r.cases.push_back(c);
      continue;
    }
    if (word == "bytes") {
      RecordedCase c;
      if (!parse_bytes(in, c)) {
        bad("is not 'bytes PASS CASE HEX'");
        return r;
      }
      r.cases.push_back(std::move(c));
      continue;
    }
    std::getline(in >> std::ws, rest);
    if (word == "backend" && r.backend.empty() && (rest == "sim" || rest == "gpu")) {
      r.backend = rest;
    } else if (word == "target" && !r.target && !rest.empty() && rest.size() <= 200) {
      r.target = rest;
    } else if (word == "replay" && !r.replay && parse_replay(rest, r)) {
      // the figures are set
    } else if (word == "held" && !r.held && parse_held(rest, r)) {
      // the figures are set
    } else if (word == "queued" && r.queued.size() < 16 && parse_queued(rest, r)) {
      // the figures are set
    } else if (word == "idea" && !r.idea && (r.idea = parse_idea_figures(rest))) {
      // the figures are set
    } else if (word == "end" && parse_end(rest)) {
      r.end = rest;
    } else {
      bad("is not a line of the grader's format");
      return r;
    }
  }
  return r;
}

}  // namespace rl

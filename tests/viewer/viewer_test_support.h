#pragma once
// Traces the viewer's tests open: the committed ones, and a committed one with its barriers taken
// out (what a GPU records).
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/trace/trace_loader.h"

namespace rl::viewer::test {

inline std::string repo(const std::string& relative) {
  return std::string(RL_REPO_ROOT) + "/" + relative;
}

inline Trace asset(const std::string& name) { return load_trace(repo("assets/traces/" + name)); }

// The trace as a GPU would record it: no barrier events, `barriers: false`.
inline Trace without_barriers(const std::string& name) {
  std::ifstream in(repo("assets/traces/" + name));
  nlohmann::json doc = nlohmann::json::parse(in);
  nlohmann::json events = nlohmann::json::array();
  for (auto& e : doc["events"]) {
    if (e[1] != "barrier" && e[1] != "warp_barrier") events.push_back(e);
  }
  // Event operands name events by position: renumber them.
  std::vector<int> position(doc["events"].size(), -1);
  for (std::size_t i = 0, k = 0; i < doc["events"].size(); ++i) {
    const auto& e = doc["events"][i];
    if (e[1] != "barrier" && e[1] != "warp_barrier") position[i] = static_cast<int>(k++);
  }
  for (auto& e : events) {
    for (std::size_t side : {6, 9}) {
      if (e[side] == "event") e[side + 1] = position[e[side + 1].get<std::size_t>()];
    }
  }
  doc["events"] = events;
  doc["barriers"] = false;
  return parse_trace(doc.dump(), name + " (no barriers)");
}

}  // namespace rl::viewer::test

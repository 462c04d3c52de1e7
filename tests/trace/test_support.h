#pragma once
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/trace/trace_loader.h"

namespace rl::test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string data_path(const std::string& name) {
  return std::string(RL_TRACE_TEST_DATA) + "/" + name;
}

}  // namespace rl::test

#include "viewer/source_names.h"

#include <regex>

namespace rl::viewer {

std::string shared_array_name(const std::vector<std::string>& lines) {
  static const std::regex traced(R"(\bShared<[^>]*>\s+([A-Za-z_]\w*))");
  static const std::regex plain(R"(__shared__\s+[\w:<> ]+?\s+([A-Za-z_]\w*)\s*\[)");
  for (const std::regex* re : {&traced, &plain}) {
    for (const std::string& line : lines) {
      const auto comment = line.find("//");
      const std::string code = comment == std::string::npos ? line : line.substr(0, comment);
      std::smatch m;
      if (std::regex_search(code, m, *re)) return m[1].str();
    }
  }
  return "shared";
}

std::string describe_stale_read(const StaleRead& r, const std::string& name) {
  std::string s = r.describe();
  const std::string from = "shared[";
  if (name != "shared") {
    if (const auto at = s.find(from); at != std::string::npos)
      s.replace(at, from.size(), name + "[");
  }
  return s;
}

}  // namespace rl::viewer

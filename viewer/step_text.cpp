#include "viewer/step_text.h"

#include <algorithm>
#include <map>

#include "viewer/cell_text.h"

namespace rl::viewer {

std::vector<std::string> step_phrases(const Trace& t, const StepIndex& idx, int s) {
  std::vector<std::string> out;
  if (idx.steps.empty()) {
    out.emplace_back("no events recorded");
    return out;
  }
  s = std::clamp(s, 0, idx.count() - 1);
  const Step& st = idx.steps[static_cast<std::size_t>(s)];
  std::string where = "step " + std::to_string(s + 1) + " of " + std::to_string(idx.count());
  // One number for a step everywhere (the slider, the rows, --step): the launch is said, not
  // counted in.
  if (t.launches.size() > 1) where += ", in launch " + std::to_string(st.launch);
  out.push_back(where);

  // What most of the step's events do, and on which line.
  std::map<std::pair<int, int>, int> by;  // (line, kind) -> events
  for (int i : st.events)
    ++by[{t.events[static_cast<std::size_t>(i)].line,
          static_cast<int>(t.events[static_cast<std::size_t>(i)].kind)}];
  std::pair<int, int> top{0, 0};
  int most = 0;
  for (const auto& [key, count] : by)
    if (count > most) most = count, top = key;
  static const char* many[] = {"load",           "store", "add", "add through shuffles",
                               "add atomically", "",      ""};
  static const char* one[] = {"loads",           "stores", "adds", "adds through a shuffle",
                              "adds atomically", "",       ""};
  const int kind = std::clamp(top.second, 0, 6);
  const std::size_t blocks = st.block_active.size();
  const std::string in_blocks = blocks > 1 ? " in " + std::to_string(blocks) + " blocks " : " ";
  const std::string what =
      std::to_string(st.active_threads) + (st.active_threads == 1
                                               ? std::string(" thread ") + one[kind]
                                               : std::string(" threads") + in_blocks + many[kind]);
  out.push_back("line " + std::to_string(top.first) + ": " + what);

  if (st.divergent_warps == 0)
    out.emplace_back(st.active_warps == 1 ? "its warp does not diverge" : "no warp diverges");
  else
    out.push_back(std::to_string(st.divergent_warps) + " of " + std::to_string(st.active_warps) +
                  (st.active_warps == 1 ? " warp diverges" : " warps diverge"));
  if (st.shared_accesses == 0)
    out.emplace_back("no shared memory");
  else if (st.worst_conflict <= 1)
    out.emplace_back("no bank conflict");
  else
    out.push_back(std::to_string(st.worst_conflict) + "-way bank conflict in " +
                  std::to_string(st.conflicted_accesses) + " of " +
                  std::to_string(st.shared_accesses) + " warp accesses");
  if (st.shuffles > 0)
    out.push_back(std::to_string(st.shuffles) + (st.shuffles == 1 ? " shuffle" : " shuffles"));
  return out;
}

std::vector<std::string> wrap_phrases(const std::vector<std::string>& phrases, float width,
                                      const char* separator) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& p : phrases) {
    const std::string joined = line.empty() ? p : line + separator + p;
    if (!line.empty() && text_width(joined) > width) {
      lines.push_back(line);
      line = p;
    } else {
      line = joined;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> sentence_phrases(const std::string& sentence) {
  std::vector<std::string> out;
  std::string rest = sentence;
  while (!rest.empty()) {
    std::size_t cut = std::string::npos, skip = 0;
    for (const char* mark : {"; ", ", in ", ", at ", ": "}) {
      const auto at = rest.find(mark);
      if (at == std::string::npos || (cut != std::string::npos && at >= cut)) continue;
      cut = at + 1;  // the phrase keeps its ";", "," or ":"; the space after it goes
      skip = 1;
    }
    if (cut == std::string::npos) {
      out.push_back(rest);
      break;
    }
    out.push_back(rest.substr(0, cut));
    rest = rest.substr(cut + skip);
  }
  return out;
}

}  // namespace rl::viewer

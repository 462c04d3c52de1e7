#pragma once
// How large a trace the viewer shows well, in one place for the recorder (which warns past it) and
// the viewer (which draws past it at a coarser level of detail). At its default 1280x800 window the
// viewer's overview gives every block of a launch its own tile of at least 3 px up to 396 blocks a
// launch, and it keeps at least 30 fps up to 200,000 events (measured under Xvfb, viewer/README.md). Header
// only: no dependencies.
#include <algorithm>
#include <cstdint>
#include <string>

namespace rl {

inline constexpr std::int64_t kViewerEventsShownWell = 200000;
inline constexpr std::int64_t kViewerBlocksShownWell = 396;

// One line when a trace of `events` events, whose largest launch has `blocks` blocks, is past what
// the viewer shows well; "" otherwise.
inline std::string trace_size_warning(std::int64_t events, std::int64_t blocks, std::int64_t n) {
  if (events <= kViewerEventsShownWell && blocks <= kViewerBlocksShownWell) return "";
  return "this trace of n = " + std::to_string(n) + " holds " + std::to_string(events) +
         " events and up to " + std::to_string(blocks) +
         " blocks a launch, past what the viewer shows well (" +
         std::to_string(kViewerEventsShownWell) + " events, " +
         std::to_string(kViewerBlocksShownWell) +
         " blocks): its overview will draw several blocks a tile; a smaller --n shows every block";
}

}  // namespace rl

#pragma once
// Watch mode's status in the window, under the toolbar, whatever the view: what the watch is doing
// (watching, building, grading, tracing, with its seconds so far) or the last round's verdict,
// coloured by it, with the grader's hint under a failure and why a tree is missing. Draws only:
// Watcher (watcher.h) has the state.
#include "viewer/watcher.h"

namespace rl::viewer {

void draw_watch_status(const WatchStatus& s);

}  // namespace rl::viewer

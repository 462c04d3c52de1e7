// Host API: stream capture on the simulator (CUDA graphs, lesson 15). Between begin_capture() and
// end_capture(), the launches that common/launch.h makes are recorded instead of run, as CUDA's
// stream capture records a stream's work into a graph; end_capture() hands the recorded launches
// back, to be run again, in order, at each replay (common/graph.h). Per host thread, as
// cudaStreamCaptureModeThreadLocal.
#pragma once
#include <functional>
#include <vector>

namespace rl::sim {

using RecordedLaunch = std::function<void()>;

// Throws std::logic_error where this thread is capturing already (CUDA refuses nested capture).
void begin_capture();
bool capturing();
// Records one launch; throws std::logic_error outside a capture.
void record(RecordedLaunch launch);
// Ends the capture and returns its launches; throws std::logic_error outside a capture.
std::vector<RecordedLaunch> end_capture();

}  // namespace rl::sim

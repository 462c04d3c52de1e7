#include "common/sim/capture.h"

#include <optional>
#include <stdexcept>
#include <utility>

namespace rl::sim {
namespace {
// The launches recorded by this thread's open capture; empty when none is open.
thread_local std::optional<std::vector<RecordedLaunch>> open_capture;
}  // namespace

void begin_capture() {
  if (open_capture) throw std::logic_error("begin_capture: this thread is capturing already");
  open_capture.emplace();
}

bool capturing() { return open_capture.has_value(); }

void record(RecordedLaunch launch) {
  if (!open_capture) throw std::logic_error("record: no capture is open");
  open_capture->push_back(std::move(launch));
}

std::vector<RecordedLaunch> end_capture() {
  if (!open_capture) throw std::logic_error("end_capture: no capture is open");
  std::vector<RecordedLaunch> launches = std::move(*open_capture);
  open_capture.reset();
  return launches;
}

}  // namespace rl::sim

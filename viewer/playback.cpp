#include "viewer/playback.h"

#include <algorithm>
#include <cmath>

namespace rl::viewer {

void Playback::set_frame_count(int n) {
  count_ = std::max(1, n);
  frame_ = std::clamp(frame_, 0, count_ - 1);
}

void Playback::play() {
  if (at_end() && count_ > 1) {
    frame_ = 0;
    clock_ = 0;
    progress_ = 0;
  }
  playing_ = count_ > 1;
}

void Playback::step_forward() {
  playing_ = false;
  frame_ = std::min(frame_ + 1, count_ - 1);
  clock_ = 0;
  progress_ = 1;
}

void Playback::step_back() {
  playing_ = false;
  frame_ = std::max(frame_ - 1, 0);
  clock_ = 0;
  progress_ = 1;
}

void Playback::scrub(int frame) {
  playing_ = false;
  frame_ = std::clamp(frame, 0, count_ - 1);
  clock_ = 0;
  progress_ = 1;
}

void Playback::set_speed(double fps) {
  speed_ = std::isfinite(fps) ? std::clamp(fps, 0.1, 120.0) : 2.0;
}

bool Playback::update(double dt) {
  if (!playing_ || !(dt > 0) || !std::isfinite(dt)) return false;
  clock_ += dt;
  const double per_frame = 1.0 / speed_;
  bool changed = false;
  while (clock_ >= per_frame) {
    clock_ -= per_frame;
    if (frame_ + 1 < count_) {
      ++frame_;
      changed = true;
    } else if (loop_) {
      frame_ = 0;
      changed = true;
    } else {
      playing_ = false;
      clock_ = 0;
      progress_ = 1;
      return changed;
    }
  }
  progress_ = std::clamp(clock_ / per_frame, 0.0, 1.0);
  return changed;
}

}  // namespace rl::viewer

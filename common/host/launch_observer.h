#pragma once
// A hook that sees every launch made through rl::launch (common/launch.h), before it starts: the
// trace recorder uses it to learn the launches' shapes and where each one's events begin.
#include <functional>

namespace rl {

struct LaunchShape {
  const char* kernel;
  unsigned grid;   // blocks (x*y*z)
  unsigned block;  // threads per block (x*y*z)
};

using LaunchObserver = std::function<void(const LaunchShape&)>;

// The current observer, or an empty function. Not thread-safe: set it around one traced run.
const LaunchObserver& launch_observer();
void set_launch_observer(LaunchObserver observer);

}  // namespace rl

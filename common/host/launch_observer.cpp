#include "common/host/launch_observer.h"

namespace rl {
namespace {
LaunchObserver& current() {
  static LaunchObserver observer;
  return observer;
}
}  // namespace

const LaunchObserver& launch_observer() { return current(); }
void set_launch_observer(LaunchObserver observer) { current() = std::move(observer); }

}  // namespace rl

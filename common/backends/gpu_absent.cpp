// Linked instead of the GPU backend when this build has none: CUDA turned off, or no CUDA compiler.
#include "common/host/device.h"

#ifndef RL_NO_GPU_WHY
#define RL_NO_GPU_WHY "it was built without CUDA"
#endif

namespace rl {

std::unique_ptr<Device> make_gpu_device(std::string* why_not) {
  if (why_not) *why_not = std::string("this build has no GPU backend: ") + RL_NO_GPU_WHY;
  return nullptr;
}

}  // namespace rl

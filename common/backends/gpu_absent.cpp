// Linked instead of the GPU backend when this build has no CUDA compiler.
#include "common/host/device.h"

namespace rl {

std::unique_ptr<Device> make_gpu_device(std::string* why_not) {
  if (why_not) *why_not = "this build has no GPU backend (no CUDA compiler was found when it was configured)";
  return nullptr;
}

}  // namespace rl

#include "common/backends/gpu/check.h"

#include <filesystem>

namespace rl {

void throw_cuda_error(cudaError_t code, const char* expression, const std::source_location& where) {
  const std::string message = std::filesystem::path(where.file_name()).filename().string() + ":" +
                              std::to_string(where.line()) + ": " + expression + " failed: " +
                              cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
  cudaGetLastError();  // clear a sticky-free error so the process can report and exit cleanly
  if (code == cudaErrorMemoryAllocation) throw CudaOutOfMemory(message);
  throw CudaError(message);
}

}  // namespace rl

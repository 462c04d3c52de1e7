#include "common/backends/gpu/check.h"

#include <filesystem>

namespace rl {

namespace {

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

std::string no_gpu_reason(cudaError_t code) {
  cudaGetLastError();
  if (code == cudaSuccess || code == cudaErrorNoDevice) return "no NVIDIA GPU found";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);  // 0 where no driver is installed
  cudaRuntimeGetVersion(&runtime);
  cudaGetLastError();
  if (driver == 0) return "no NVIDIA GPU found (no NVIDIA driver is installed)";
  if (code == cudaErrorInsufficientDriver)
    return "the NVIDIA driver (CUDA " + cuda_version_text(driver) +
           ") is older than this build's CUDA runtime (" + cuda_version_text(runtime) +
           "): update the driver to use the GPU";
  return std::string("no usable NVIDIA GPU (CUDA says: ") + cudaGetErrorString(code) + ")";
}

void throw_cuda_error(cudaError_t code, const char* expression, const std::source_location& where) {
  const std::string message = std::filesystem::path(where.file_name()).filename().string() + ":" +
                              std::to_string(where.line()) + ": " + expression +
                              " failed: " + cudaGetErrorName(code) + " (" +
                              cudaGetErrorString(code) + ")";
  cudaGetLastError();  // clear a sticky-free error so the process can report and exit cleanly
  if (code == cudaErrorMemoryAllocation) throw CudaOutOfMemory(message);
  throw CudaError(message);
}

}  // namespace rl

#pragma once
// Every CUDA call and every launch is checked: a failure throws rl::CudaError whose message names
// the file, the line, the failing expression and CUDA's own error string, on one line.
#include <cuda_runtime.h>

#include <source_location>
#include <stdexcept>
#include <string>

namespace rl {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Running out of device memory is the user's input being too large, not a bug: it gets its own type
// so the harness can answer it with a usage error (exit 2) instead of a failure.
struct CudaOutOfMemory : CudaError {
  using CudaError::CudaError;
};

// Why cudaGetDeviceCount found no GPU (it returned `code`, or a count of 0), in words that say what
// to do, if anything: "no NVIDIA GPU found (no NVIDIA driver is installed)" on a machine without
// one, an outdated driver only where there is a driver to update.
std::string no_gpu_reason(cudaError_t code);

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expression,
                                   const std::source_location& where);

inline void check_cuda(cudaError_t code, const char* expression,
                       const std::source_location& where = std::source_location::current()) {
  if (code != cudaSuccess) throw_cuda_error(code, expression, where);
}

// After a <<<...>>> launch: configuration errors surface at once; faults inside the kernel surface
// at the next synchronising call, which is checked too.
inline void check_launch(const char* kernel_name,
                         const std::source_location& where = std::source_location::current()) {
  check_cuda(cudaGetLastError(), kernel_name, where);
}

}  // namespace rl

// The one macro: only the preprocessor can turn the call into the text of the failing expression.
#define RL_CUDA_CHECK(expr) ::rl::check_cuda((expr), #expr)

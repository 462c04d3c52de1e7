#pragma once
// NCCL calls are checked like CUDA calls (common/backends/gpu/check.h): a failure throws
// rl::NcclError naming the file, the line, the failing expression and NCCL's own error string, on
// one line.
#include <nccl.h>

#include <filesystem>
#include <source_location>
#include <stdexcept>
#include <string>

namespace rl {

struct NcclError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_nccl(ncclResult_t code, const char* expression,
                       const std::source_location& where = std::source_location::current()) {
  if (code == ncclSuccess) return;
  throw NcclError(std::filesystem::path(where.file_name()).filename().string() + ":" +
                  std::to_string(where.line()) + ": " + expression +
                  " failed: " + ncclGetErrorString(code));
}

}  // namespace rl

// As RL_CUDA_CHECK: only the preprocessor can turn the call into the text of the failing
// expression.
#define RL_NCCL_CHECK(expr) ::rl::check_nccl((expr), #expr)

#pragma once
// Records a trace: runs a lesson's plan once with its kernels' RecordTrace policy on the session's
// input and writes the events as the documented trace file (common/trace/FORMAT.md).
#include <string>

#include <nlohmann/json.hpp>

#include "common/host/session.h"

namespace rl {

inline constexpr int trace_schema_version = 2;

struct TraceOptions {
  // events the buffer holds; 0: enough for the size (64 per element + 64 Ki)
  unsigned capacity = 0;
};

// The trace document; throws UsageError when the plan cannot be traced (library code) and
// std::runtime_error when the buffer overflowed (the file would be an incomplete tree).
nlohmann::json record_trace(Session& session, const Plan& plan, unsigned block,
                            const TraceOptions& options = {});

// "lessons/03_sequential_addressing/sequential_addressing.cuh": the kernel header of a lesson.
std::string lesson_source_path(const Plan& plan);

}  // namespace rl

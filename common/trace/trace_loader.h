#pragma once
// Reads a trace file (version 2) and checks everything FORMAT.md says a valid trace satisfies, then
// derives its DAG and levels (trace_model.h). Anything else throws rl::TraceError with one line:
// "<name>: <first problem>"; a version 1 file gets a line that says to record it again. Never
// crashes or hangs, whatever the bytes: the text is capped in size and nesting depth before it is
// parsed.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/trace/trace_model.h"

namespace rl {

inline constexpr std::size_t kMaxTraceBytes = std::size_t{256} << 20;  // 256 MiB
inline constexpr int kMaxTraceDepth = 32;                              // JSON nesting

Trace load_trace(const std::string& path);
Trace parse_trace(std::string_view text, const std::string& name);

}  // namespace rl

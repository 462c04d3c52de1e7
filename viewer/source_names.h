#pragma once
// Names a student knows from the kernel's source: the traced shared array's ("partial"), so that a
// stale read reads "thread 5 read partial[37] at line 27; ..." as the code says it. Pure.
#include <string>
#include <vector>

#include "common/trace/stale_reads.h"

namespace rl::viewer {

// The name the kernel gives its traced shared array: the variable declared `Shared<...> name` (or
// `__shared__ T name[...]`); "shared" when the source says neither.
std::string shared_array_name(const std::vector<std::string>& source_lines);

// StaleRead::describe() with the shared array called by its name.
std::string describe_stale_read(const StaleRead& r, const std::string& array_name);

}  // namespace rl::viewer

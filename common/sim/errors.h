// Error reporting of the simulator: KernelError and kernel_error().
#pragma once
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/sim/vector_types.h"

namespace rl::sim {

// Thrown by launch() when a kernel fails. what() is one line:
//   sim: kernel 'NAME' block (x,y,z) thread (x,y,z): PROBLEM
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raise a kernel error from inside a kernel: the report is prefixed with the running
// kernel, block and thread. Outside a launch it throws KernelError as well.
[[noreturn]] void kernel_error(const std::string& what);

namespace detail {

// "sim: kernel 'k' block (1,0,0) thread (5,0,0): " + what (newlines in what become spaces)
std::string format_report(const char* kernel, uint3 block, uint3 thread, const std::string& what);

// "0-31, 40, 64-95" (ascending ids; long lists are cut with ", ...")
std::string format_ranges(const std::vector<unsigned>& ascending_ids);

// "file.cuh:12" (base name of the file and the line)
std::string format_location(const std::source_location& loc);

bool same_location(const std::source_location& a, const std::source_location& b);

// "0x0000ffff"
std::string format_mask(unsigned mask);

}  // namespace detail
}  // namespace rl::sim

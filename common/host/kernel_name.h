#pragma once
// Kernel names as the profilers give them, made short enough for a record and a table cell: ncu
// prints "void single_pass<1024, 4, 0, NoTrace>(T4::Global<const float>, ...)", CUPTI the
// mangled symbol.
#include <string>
#include <string_view>

namespace rl {

// The demangled form of a mangled symbol ("_Z..."); the text itself where it is not one.
std::string demangle(const char* symbol);

// A demangled kernel without its return type and argument list: "void f<256, NoTrace>(float*,
// int)" -> "f<256, NoTrace>". Template arguments and namespaces stay.
std::string kernel_without_arguments(std::string_view demangled);

// The kernel's own identifier, without namespaces or template arguments:
// "cub::detail::reduce::DeviceReduceKernel<Policy, const float*>" -> "DeviceReduceKernel".
std::string kernel_identifier(std::string_view name);

}  // namespace rl

#include "common/host/kernel_name.h"

#include <cstdlib>
#include <memory>

#include <cxxabi.h>

namespace rl {

std::string demangle(const char* symbol) {
  if (!symbol) return "";
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(symbol, nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(symbol);
}

std::string kernel_without_arguments(std::string_view name) {
  // Kernels return void; the demangler writes that first for a function template.
  if (name.starts_with("void ")) name.remove_prefix(5);
  if (!name.ends_with(')')) return std::string(name);
  // The argument list is the parenthesis that closes the name: walk back to the one it closes
  // (parentheses inside it, "(anonymous namespace)", nest).
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return std::string(name.substr(0, i));
  }
  return std::string(name);
}

std::string kernel_identifier(std::string_view name) {
  const std::string bare = kernel_without_arguments(name);
  std::string outside;  // the name with every <...> taken out
  int depth = 0;
  for (const char c : bare) {
    if (c == '<') ++depth;
    if (depth == 0) outside += c;
    if (c == '>' && depth > 0) --depth;
  }
  const std::size_t colons = outside.rfind("::");
  return colons == std::string::npos ? outside : outside.substr(colons + 2);
}

}  // namespace rl

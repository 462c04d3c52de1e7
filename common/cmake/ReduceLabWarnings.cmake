# One place for warning flags, so every target is held to the same standard.
# -Wno-missing-field-initializers: GCC 12 warns about every member a C++20 designated initializer
# leaves to its default (GCC bug 96868, fixed in GCC 13), and the plans name only the members they set.
add_library(reducelab_warnings INTERFACE)
target_compile_options(reducelab_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-missing-field-initializers --Werror=cross-execution-space-call>)

# The web build (emscripten; viewer/README.md, "In a web page"): what differs from a native build,
# in one place. Included by the top CMakeLists.txt only when the toolchain is emscripten's
# (emcmake cmake, or cmake --preset web).
#
# - No GPU, no tests here (the page's own test runs from the native build: tests/viewer/).
# - C++ exceptions on (emscripten turns them off by default; the simulator reports through them).
# - emscripten 3.1.6's libc++ lacks <source_location>, std::bit_cast and std::atomic_ref: the small
#   headers in common/compat/emscripten come first on the include path.
# - CLI11 and nlohmann_json are header-only Debian packages under /usr/include, which must not be on
#   an emscripten include path (glibc's headers are there too): a folder in the build tree links
#   just those two folders, as the targets the native build gets from find_package.
set(REDUCELAB_CUDA OFF CACHE BOOL "" FORCE)
set(REDUCELAB_TESTS OFF CACHE BOOL "" FORCE)
set(REDUCELAB_IMGUI_DIR "${PROJECT_BINARY_DIR}/imgui" CACHE PATH
    "Dear ImGui's sources (Debian's source package; viewer/web/ensure-web-deps.sh unpacks it here)")

add_compile_options(-fexceptions)
add_link_options(-fexceptions)
include_directories(BEFORE SYSTEM "${PROJECT_SOURCE_DIR}/common/compat/emscripten")

set(_rl_headers "${PROJECT_BINARY_DIR}/debian-headers")
foreach(dir nlohmann CLI)
  if(NOT EXISTS "/usr/include/${dir}")
    message(FATAL_ERROR "The web build needs /usr/include/${dir} (apt-get install nlohmann-json3-dev libcli11-dev)")
  endif()
  file(MAKE_DIRECTORY "${_rl_headers}")
  file(CREATE_LINK "/usr/include/${dir}" "${_rl_headers}/${dir}" SYMBOLIC)
endforeach()
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_rl_headers}")
add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_rl_headers}")

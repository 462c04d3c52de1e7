#pragma once
// Turns a lesson's description (a struct with static members) into a registered Reducer for the
// backend this translation unit is compiled for. Included only by the TUs CMake generates per lesson.
#include "common/cuda_compat.h"
#include "common/host/reducer.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

#if defined(__CUDACC__)
inline constexpr Backend this_backend = Backend::gpu;
#else
inline constexpr Backend this_backend = Backend::sim;
#endif

// A lesson struct L provides: lesson, slug, title, variant (string literals / int) and
//   static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape&);
//   template <class Trace> static void reduce(const float* in, float* out, std::uint64_t n,
//                      unsigned block, void* scratch, const DeviceShape&, void* stream);
//   static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape&);
// A lesson struct may also declare `static constexpr bool gpu_only = true` (library code that has
// no simulator version): it is then registered for the GPU backend only.
template <class L>
void register_lesson() {
  if constexpr (requires { L::gpu_only; }) {
    if (this_backend != Backend::gpu) return;
  }
  Reducer r{L::lesson, L::slug, L::title, L::variant, this_backend, 0, &L::scratch_bytes,
            &L::template reduce<NoTrace>, &L::depth};
  if constexpr (requires { L::preferred_block; }) r.preferred_block = L::preferred_block;
#ifdef RL_KERNEL_SOURCE
  r.source = RL_KERNEL_SOURCE;  // set by reducelab_add_lesson (common/cmake): which file was compiled
#endif
  if constexpr (!requires { L::gpu_only; }) {
    r.reduce_traced = &L::template reduce<RecordTrace>;
    r.attach_trace = [](const void* b) { attach_trace_buffer(*static_cast<const TraceBuffer*>(b)); };
  }
  register_reducer(r);
}

template <class... Lessons>
bool register_lessons() {
  (register_lesson<Lessons>(), ...);
  return true;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl

#include "common/sim/tls_ranges.h"

#ifdef __EMSCRIPTEN__
// The web build has one thread and no dynamic modules: thread_local variables are plain statics in
// the module's data, which the linker bounds with these symbols.
extern "C" unsigned char __global_base;
extern "C" unsigned char __data_end;
#else
#include <link.h>
#endif

namespace rl::sim::detail {

#ifdef __EMSCRIPTEN__
TlsRanges current_tls_ranges() {
  return {TlsBlock{1, &__global_base, static_cast<std::size_t>(&__data_end - &__global_base)}};
}
#else
TlsRanges current_tls_ranges() {
  TlsRanges ranges;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_TLS && info->dlpi_tls_data != nullptr)
            static_cast<TlsRanges*>(out)->push_back(
                TlsBlock{info->dlpi_tls_modid,
                         static_cast<const unsigned char*>(info->dlpi_tls_data), ph.p_memsz});
        }
        return 0;
      },
      &ranges);
  return ranges;
}
#endif

const TlsBlock* find_tls(const TlsRanges& ranges, const void* p, std::size_t bytes) {
  const auto* a = static_cast<const unsigned char*>(p);
  for (const TlsBlock& b : ranges)
    if (a >= b.begin && a + bytes <= b.begin + b.size) return &b;
  return nullptr;
}

}  // namespace rl::sim::detail

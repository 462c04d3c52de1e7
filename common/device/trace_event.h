#pragma once
// What a traced kernel writes, as plain structs: shared by the device-side recorder
// (common/trace/recorder.h) and the host code that turns the events into a trace file.
#include <cstdint>

namespace rl {

enum class TraceKind : std::uint8_t { load, combine, shuffle, store, atomic, barrier };
enum class TraceSpace : std::uint8_t { none, shared, reg, global };

// One event as the device writes it; global locations are raw addresses, which the host maps to
// (buffer, index) when it writes the file (common/trace/trace_writer.h).
struct TraceEvent {
  std::uint64_t dst;
  std::uint64_t src;
  float value;
  std::uint32_t block;
  std::int32_t thread;
  std::uint16_t step;
  TraceKind kind;
  TraceSpace dst_space;
  TraceSpace src_space;
  std::uint32_t line;
};

struct TraceBuffer {
  TraceEvent* events = nullptr;
  unsigned capacity = 0;
  unsigned* count = nullptr;  // events offered, which may exceed capacity
};

}  // namespace rl

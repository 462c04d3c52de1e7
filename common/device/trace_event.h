#pragma once
// What a traced kernel writes, as plain structs: written by the device-side recorder
// (common/device/traced.h) and read by the host code that turns the events into a trace file
// (common/host/trace_run.cpp, format in common/trace/FORMAT.md).
#include <cstdint>

namespace rl {

enum class TraceKind : std::uint8_t { load, store, combine, shuffle, atomic, barrier, warp_barrier };

// Where a value came from or went: `constant` (a literal in the kernel), `event` (a register value,
// index = the event that produced it), a `shared` slot, a thread's `reg`ister (destinations only,
// index = the thread) or a `global` raw address, which the host maps to (buffer, index).
enum class TraceSpace : std::uint8_t { none, constant, event, shared, reg, global };

struct TraceOperand {
  std::uint64_t index = 0;
  float value = 0.0f;  // the value the thread read
  TraceSpace space = TraceSpace::none;
};

// One event as the device writes it.
struct TraceEvent {
  std::uint64_t dst = 0;  // for warp_barrier: the mask of the lanes that synchronised
  TraceOperand a, b;
  float value = 0.0f;
  std::uint32_t block = 0;
  std::int32_t thread = -1;
  std::uint32_t line = 0;
  TraceKind kind = TraceKind::barrier;
  TraceSpace dst_space = TraceSpace::none;
};

struct TraceBuffer {
  TraceEvent* events = nullptr;
  unsigned capacity = 0;
  unsigned* count = nullptr;  // events offered, which may exceed capacity
};

}  // namespace rl

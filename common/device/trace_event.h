#pragma once
// What a traced kernel writes, as plain structs: written by the device-side recorder
// (common/device/traced.h) and read by the host code that turns the events into a trace file
// (common/host/trace_run.cpp, format in common/trace/FORMAT.md).
#include <cstdint>
#include <string_view>

namespace rl {

// What an event did; its name is the "kind" of an event in a trace file.
enum class EventKind : std::uint8_t {
  load,
  store,
  combine,
  shuffle,
  atomic,
  barrier,
  warp_barrier
};

constexpr std::string_view to_string(EventKind k) {
  switch (k) {
    case EventKind::load:
      return "load";
    case EventKind::store:
      return "store";
    case EventKind::combine:
      return "combine";
    case EventKind::shuffle:
      return "shuffle";
    case EventKind::atomic:
      return "atomic";
    case EventKind::barrier:
      return "barrier";
    case EventKind::warp_barrier:
      return "warp_barrier";
  }
  return "?";
}

// barrier or warp_barrier: no destination, no operands, no node.
constexpr bool is_barrier(EventKind k) {
  return k == EventKind::barrier || k == EventKind::warp_barrier;
}

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
  EventKind kind = EventKind::barrier;
  TraceSpace dst_space = TraceSpace::none;
};

struct TraceBuffer {
  TraceEvent* events = nullptr;
  unsigned capacity = 0;
  unsigned* count = nullptr;  // events offered, which may exceed capacity
  // One slot a thread of the launch (block * threads a block + thread), zero at the start: while a
  // traced helper of common/device runs, the line of the kernel that called it (traced.h's
  // CallSite), which its events take in place of the helper's own line. Threads past the last
  // slot keep the helper's line.
  unsigned* call_lines = nullptr;
  unsigned call_line_slots = 0;
};

}  // namespace rl

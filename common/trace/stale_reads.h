#pragma once
// Stale reads of shared memory: pairs where one thread reads a shared slot and another thread
// writes the same slot with no barrier between them that both passed, so what the reader saw
// depends on timing (a missing __syncthreads, or a missing __syncwarp between lanes of one warp).
//
// Only traces whose `barriers` is true say where the barriers were (the simulator's); for the
// others find_stale_reads finds nothing, and a caller should say that it could not look.
//
// Within one block of one launch, the block's `barrier` events cut its events into intervals; a
// read and a write of one slot by different threads in the same interval are a pair, unless both
// threads are lanes of one warp and a `warp_barrier` whose mask holds both lanes lies between the
// two in event order. A read is an operand in space `shared` (a combine that reads its own dst
// names it as an operand); a write is the shared dst of any event. An atomic's read of its own dst
// against another atomic's write is not a pair: atomics do not interleave.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/trace/trace_model.h"

namespace rl {

struct StaleRead {
  int launch = 0;
  int block = 0;
  std::int64_t slot = 0;  // index in the block's traced shared array
  int reader = 0;         // thread that read the slot
  int writer = 0;         // thread that wrote it
  int read_event = 0;     // indexes into Trace::events
  int write_event = 0;
  int operand = 0;  // the read event's operand that read the slot: 0 a, 1 b
  int read_line = 0;
  int write_line = 0;
  bool write_first = false;  // the write was recorded before the read (else after it)
  // reader and writer are lanes of one warp: a __syncwarp would have done
  bool same_warp = false;

  // One line: "thread 5 read shared[37] at line 27; thread 37 wrote it at line 27 after the read,
  // in the same interval: no __syncthreads between"
  std::string describe() const;
};

// Every stale read of `t` in event order of the reads (then of the writes), at most `limit` of
// them. Pure: needs only the events (not the DAG).
std::vector<StaleRead> find_stale_reads(const Trace& t, std::size_t limit = 100000);

}  // namespace rl

#pragma once
// A trace file (schema `reducelab.trace` v2, common/trace/FORMAT.md) as C++ values, plus the
// reduction DAG rebuilt from its events: every event that writes a location (memory or a register)
// makes a new version of it (a node), with edges from the versions its operands name.
//
// Levels: the file holds none; build_dag derives each node's level from the data flow (FORMAT.md,
// "What the reader derives"). Levels are global across launches: the input leaves are level 0 and
// a later launch's loads from `scratch` keep the level of the versions the earlier launch stored,
// so a two-launch reduction counts its tree levels on from where the first launch stopped. (The
// viewer plays a trace in program order, by steps: viewer/steps.h.)
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/device/trace_event.h"  // EventKind, shared with the recorder

namespace rl {

// What goes wrong while reading a trace: always one line, naming the file and the first problem.
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// combine, shuffle, atomic: dst = a + b.
inline bool adds(EventKind k) {
  return k == EventKind::combine || k == EventKind::shuffle || k == EventKind::atomic;
}

// `constant` and `event` occur only in operands, `reg` only in destinations.
enum class SpaceKind : std::uint8_t { none, constant, event, shared, reg, buffer };

struct Space {
  SpaceKind kind = SpaceKind::none;
  int buffer = -1;  // index into Trace::buffers when kind == buffer
  friend bool operator==(const Space&, const Space&) = default;
};

struct Location {
  Space space;
  std::int64_t index = -1;  // for an `event` operand: the event's position in Trace::events
  friend bool operator==(const Location&, const Location&) = default;
};

// A value an event read: where from (a Location, possibly none, a constant or an event) and the
// value the thread saw (NaN where the file says null).
struct Operand {
  Location loc;
  double value = 0.0;
  bool present() const { return loc.space.kind != SpaceKind::none; }
  // A memory location (shared or a global buffer), as opposed to an event, a constant or nothing.
  bool memory() const {
    return loc.space.kind == SpaceKind::shared || loc.space.kind == SpaceKind::buffer;
  }
};

struct Launch {
  std::string kernel;
  int grid = 1;
  int block = 1;
  std::int64_t n = -1;  // elements this launch reduces; -1 when the file leaves it out
};

struct Event {
  int launch = 0;
  EventKind kind = EventKind::load;
  int block = 0;
  int thread = 0;          // -1 for a block-wide barrier; a warp_barrier names its warp's lane 0
  Location dst;            // none for barriers
  std::uint32_t mask = 0;  // warp_barrier only: the lanes that synchronised (the file's dst_index)
  Operand a, b;
  double value = 0.0;  // NaN where the file says null
  int line = 0;
};

// One version of one location. Leaves are the input elements (event == -1, no parents).
struct DagNode {
  int id = 0;
  int level = 0;    // derived from the data flow (FORMAT.md); leaves are 0
  int launch = -1;  // -1 for leaves
  int block = -1;
  int thread = -1;
  Location loc;
  double value = 0.0;
  int event = -1;  // index into Trace::events of the event that made this version
  // The version each operand (a, b) names; -1 for a constant, no operand, or a read of a location
  // that no event wrote (and that is not an input leaf).
  std::array<int, 2> operand_nodes{-1, -1};
  // Bit 0: operand a, bit 1: operand b is an unexplained read (see UnexplainedRead).
  std::uint8_t unexplained = 0;
  std::array<int, 2> parent_ids{-1, -1};  // the distinct operand versions, a's first
  int parent_count = 0;

  std::span<const int> parents() const {
    return {parent_ids.data(), static_cast<std::size_t>(parent_count)};
  }
  bool is_leaf() const { return event < 0; }
};

// An operand whose recorded value is not the value of the version it names (compared exactly,
// NaN equal to NaN), or a memory read of a location that nothing wrote before it: FORMAT.md's
// "read of a value the trace does not explain" (a read before the write, or a race).
struct UnexplainedRead {
  int event = 0;
  int operand = 0;        // 0: a, 1: b
  int version = -1;       // the node the operand names; -1 when the location had no version yet
  double read = 0.0;      // the value the thread saw
  double expected = 0.0;  // the version's value (NaN when there is no version)
};

struct Dag {
  // leaves first (ids 0..leaf_count-1, in input order), then in event order
  std::vector<DagNode> nodes;
  std::vector<int> event_nodes;  // per event: the node it made, -1 for barriers
  // Per event: its node's level; for a barrier, the highest level its block reached before it in
  // that launch (the level the barrier closes), or the launch's lowest level before any.
  std::vector<int> event_levels;
  std::vector<UnexplainedRead> unexplained;  // in event order, a before b
  int leaf_count = 0;
  int max_level = 0;
  int final_node = -1;  // the version that holds the trace's result; -1 when none could be found
};

struct Trace {
  std::string name;  // the file it came from (for messages)
  std::string schema;
  int version = 2;
  int lesson = 0;
  std::string slug, title, variant, backend, device, source;
  std::int64_t n = 0;
  int block = 1;
  std::uint64_t seed = 0;
  std::string distribution;
  std::vector<double> input;
  double result = 0.0;  // NaN where the file says null
  std::vector<Launch> launches;
  std::vector<std::string> buffers;
  bool barriers = false;  // barrier events were recorded (the simulator's traces)
  std::int64_t capacity = 0;
  bool overflow = false;
  std::vector<Event> events;
  Dag dag;

  int input_buffer() const;  // index of "input" in buffers, or -1
  // The block size as a header says it: "block 256", and where the kernels launched other sizes
  // (a variant that runs three quarters of the block asked for), "block 256 (launched 192)".
  std::string block_label() const;
  // "shared[3]", "r5", "scratch[0]", "event 12", "const", "-"
  std::string location_name(const Location& l) const;
  // The derived level of event i (see Dag::event_levels).
  int level_of(std::size_t event) const { return dag.event_levels[event]; }
};

// Rebuilds the DAG from a validated trace's events (Trace::dag is filled by the loader already).
Dag build_dag(const Trace& t);

// Exact equality of two recorded values, NaN equal to NaN (a slot the simulator never wrote reads
// as NaN on every thread).
bool same_value(double x, double y);

}  // namespace rl

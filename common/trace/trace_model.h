#pragma once
// A trace file (schema `reducelab.trace` v1, common/trace/FORMAT.md) as C++ values, plus the
// reduction DAG rebuilt from its events: every event that writes a location makes a new version
// (a node) of that location, with edges from the versions it read.
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

// What goes wrong while reading a trace: always one line, naming the file and the first problem.
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class EventKind : std::uint8_t { load, combine, shuffle, store, atomic, barrier };
std::string_view to_string(EventKind k);

enum class SpaceKind : std::uint8_t { none, shared, reg, buffer };

struct Space {
  SpaceKind kind = SpaceKind::none;
  int buffer = -1;  // index into Trace::buffers when kind == buffer
  friend bool operator==(const Space&, const Space&) = default;
};

struct Location {
  Space space;
  std::int64_t index = -1;
  friend bool operator==(const Location&, const Location&) = default;
};

struct Launch {
  std::string kernel;
  int grid = 1;
  int block = 1;
  std::int64_t n = -1;  // elements this launch reduces; -1 when the file leaves it out
};

struct Event {
  int launch = 0;
  int step = 0;
  EventKind kind = EventKind::load;
  int block = 0;
  int thread = 0;  // -1 for block-wide events
  Location dst;
  Location src;
  double value = 0.0;
  int line = 0;
};

// One version of one location. Leaves are the input elements (event == -1, no parents).
struct DagNode {
  int id = 0;
  int step = 0;
  int launch = -1;  // -1 for leaves
  int block = -1;
  int thread = -1;
  Location loc;
  double value = 0.0;
  int event = -1;  // index into Trace::events of the event that made this version
  std::array<int, 2> parent_ids{-1, -1};
  int parent_count = 0;

  std::span<const int> parents() const { return {parent_ids.data(), static_cast<std::size_t>(parent_count)}; }
  bool is_leaf() const { return event < 0; }
};

struct Dag {
  std::vector<DagNode> nodes;  // leaves first (ids 0..leaf_count-1, in input order), then in step order
  int leaf_count = 0;
  int final_node = -1;  // the version that holds the trace's result; -1 when none could be found
};

struct Trace {
  std::string name;  // the file it came from (for messages)
  std::string schema;
  int version = 1;
  int lesson = 0;
  std::string slug, title, variant, backend, device, source;
  std::int64_t n = 0;
  int block = 1;
  std::vector<double> input;
  double result = 0.0;
  std::vector<Launch> launches;
  std::vector<std::string> buffers;
  std::int64_t capacity = 0;
  bool overflow = false;
  std::vector<Event> events;
  Dag dag;

  int input_buffer() const;  // index of "input" in buffers, or -1
  std::string location_name(const Location& l) const;  // "shared[3]", "r5", "scratch[0]"
};

// Rebuilds the DAG from a validated trace's events (Trace::dag is filled by the loader already).
Dag build_dag(const Trace& t);

}  // namespace rl

#pragma once
// The step figure of one block, as in the slides of a reduction: one row per step of the kernel
// (steps.h) showing the block's shared-memory array (or, for the steps that write registers, each
// lane's register) after that step, each cell with its value; which cells the step wrote and by
// which thread; arrows from the cells each addition read to the cell it wrote; the bank of every
// shared access and the cells whose access collided with another address in its bank; and the
// marks a teacher puts on it: stale reads, the first difference from the other trace, reads of
// values the trace does not explain. Built from the block's own events only, for the steps of the
// current launch up to the current step. Pure: no ImGui, unit-tested.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/trace/stale_reads.h"
#include "common/trace/trace_model.h"
#include "viewer/steps.h"

namespace rl::viewer {

enum class ArrayKind : std::uint8_t { shared, reg };

// Which block, and which of its columns (slots and lanes share one index) the figure shows.
struct FigureFocus {
  int block = 0;
  std::int64_t first_column = 0;
  int columns = 32;
};

// What the figure marks beyond the trace itself.
struct FigureMarks {
  const std::vector<StaleRead>* stale = nullptr;  // this trace's stale reads (any block)
  // the first event that differs from the other trace
  int differs_event = -1;
};

struct FigureCell {
  bool held = false;  // the location holds a value written in this launch by now
  double value = 0.0;
  bool written = false;  // written at this row's step
  int thread = -1;       // the thread that wrote it at this step
  int event = -1;        // the event that wrote it at this step (the last one, when several did)
  // >= 2: a shared access of this step to this slot shared its bank with others of its warp
  int conflict_ways = 0;
  bool unexplained = false;  // the writing event read a value the trace does not explain
  bool stale = false;        // half of a stale read (the slot read, or written) at this step
  bool differs = false;      // the first difference from the other trace
};

struct FigureArrow {
  ArrayKind from_array = ArrayKind::shared;
  std::int64_t from_index = 0;  // may lie outside the window: the drawing points off the edge
  // the figure row showing the value read; -1: one before the first row
  int from_row = -1;
  std::int64_t to_index = 0;  // in this row's array
  int thread = 0;
  int event = 0;
  bool carry = false;    // the destination's own previous value (the a of a +=)
  bool shuffle = false;  // another lane's register, through a shuffle
  bool stale = false;    // this read is half of a stale read
  bool unexplained = false;
};

// A write to a global buffer (a store of the block's result, an atomic add).
struct FigureOut {
  ArrayKind from_array = ArrayKind::shared;
  std::int64_t from_index = -1;  // the cell the value came from; -1 when it came from no array
  std::string target;            // "scratch[1]"
  double value = 0.0;
  int thread = 0;
  int event = 0;
};

struct FigureRow {
  int step = 0;    // index into StepIndex::steps
  int number = 0;  // the step's number in the trace, from 1 (what --step and the slider say)
  ArrayKind array = ArrayKind::shared;
  bool current = false;
  std::vector<FigureCell> cells;  // one per window column
  std::vector<FigureArrow> arrows;
  std::vector<FigureOut> outs;
  int threads = 0;     // threads of this block with an event at this step
  std::string action;  // "16 threads add" (the work of the row, for its caption)
  std::string reads;   // global reads of the row: "input[32..63]"
};

struct BlockFigure {
  int launch = -1;
  int block = 0;
  int block_dim = 1;
  int current_step = -1;
  std::int64_t first_column = 0;
  int column_count = 0;
  std::int64_t shared_size = 0;    // slots of the block's traced shared array it touches (0: none)
  std::int64_t register_size = 0;  // lanes whose registers it writes (0: none)
  // the launch's steps up to the current one that wrote something in this block
  std::vector<FigureRow> rows;
  // per thread of the block: 1 when it has an event at the current step
  std::vector<char> active;
  bool current_idle = false;  // the block does nothing at the current step

  std::int64_t columns_total() const { return std::max(shared_size, register_size); }
};

// The columns a block's figure has over the whole launch: max(shared slots, register lanes) it
// touches.
std::int64_t figure_columns_total(const Trace& t, const StepIndex& steps, int launch, int block);

BlockFigure build_figure(const Trace& t, const StepIndex& steps, int current_step,
                         const FigureFocus& focus, const FigureMarks& marks = {});

}  // namespace rl::viewer

#pragma once
// The outputs a submission hands back to the trusted grader (lessons/GRADING.md). The submission's
// process, in the sandbox, runs its kernel on the graded cases (`NN_slug --grade --grade-outputs-fd
// FD --grade-seed S`) and writes one line per case to FD; the trusted build of the same lesson
// (`NN_slug --grade --grade-check FILE --grade-seed S`) reads them back, draws the same inputs,
// computes its own references and decides the verdict. Nothing but these lines crosses over, and
// a line that is not in this format fails the submission:
//   backend sim|gpu
//   out PASS PLAN CASE BITS     the result of case CASE of plan PLAN in pass PASS (0 lane order,
//                               1 reverse, 2 shuffled), BITS its float's 8 hex digits
//   error PASS PLAN CASE TEXT   the kernel's error on that case (the simulator's report)
//   bytes PASS CASE HEX         the raw outputs of case CASE of a lesson with its own cases
//                               (grade_runs: lessons 18-22), as the kernel left them, in hex
//   target FIGURES              what the lesson's speed target is judged from (lesson 11: its
//                               kernel's loads in flight and occupancy, and on a GPU its speed,
//                               the ceiling's and its total), never a verdict
//   replay LAUNCHES BITS        lesson 15's idea: a second call with the same arguments, the
//                               kernels it launched itself and its total's 8 hex digits
//   held HELD CALL BITS         lesson 16's idea: one call on a stream held for HELD ms, the ms it
//                               took to return on the host (decimal) and its total's 8 hex digits
//   queued BITS BITS B W        lessons 13 and 14's idea: two calls queued back to back, the
//                               second overlapping the first, their totals' 8 hex digits each,
//                               and on the simulator the __syncthreads the second call's first
//                               block reached before it waited (B) and whether it waited (W, 0 or
//                               1); "- -" where not seen
//   queued error TEXT           the same run, stopped by the kernel's error (the simulator's report)
//   idea FIGURES                the lesson's idea as a trace of its kernel shows it: the block size,
//                               then one group of figures per level of block 0 (idea.h, to_text)
//   end exit N | end signal N | end silent   how the submission's run of the cases ended
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/host/idea.h"

namespace rl {

struct RecordedCase {
  int pass = 0;
  std::size_t plan = 0, index = 0;
  bool error = false;
  std::uint32_t bits = 0;  // the float's bits, where not an error
  bool raw_given = false;  // a "bytes" line: the outputs are in `raw`
  std::vector<unsigned char> raw;
  std::string message;  // the error, where one
};

struct Recorded {
  std::string backend;
  std::vector<RecordedCase> cases;
  std::optional<std::string> target;  // the target's figures, as handed back
  struct Replay {
    unsigned launches = 0;
    std::uint32_t bits = 0;
  };
  std::optional<Replay> replay;  // lesson 15's replay figures, as handed back
  struct Held {
    double held_ms = 0.0, call_ms = 0.0;
    std::uint32_t bits = 0;
  };
  std::optional<Held> held;  // lesson 16's held-stream figures, as handed back
  struct Queued {
    std::uint32_t first = 0, second = 0;  // the two totals' bits, where no error
    std::string error;
    int early_barriers = -1;  // -1: not seen
    bool early_waited = false;
  };
  std::vector<Queued> queued;       // the queued calls' figures, one a plan, as handed back
  std::optional<IdeaFigures> idea;  // the idea's figures from a trace, as handed back
  std::string end;                  // "exit N", "signal N", "silent"; empty: no end line
  std::string malformed;            // the first line out of format ("line 3: ..."), if any
};

// The lines, one each.
std::string recorded_out(int pass, std::size_t plan, std::size_t index, float got);
std::string recorded_error(int pass, std::size_t plan, std::size_t index, const std::string& what);
std::string recorded_replay(unsigned launches, float got);
std::string recorded_held(double held_ms, double call_ms, float got);
std::string recorded_queued(float first, float second, const std::string& error,
                            int early_barriers = -1, bool early_waited = false);
std::string recorded_bytes(int pass, std::size_t index, const std::vector<unsigned char>& raw);

// Reads at most `max_bytes` of the file (more is malformed: a run hands back a few kilobytes).
// A missing or unreadable file is a Recorded with nothing in it and `end` empty.
Recorded read_recorded(const std::string& path, std::size_t max_bytes);

}  // namespace rl

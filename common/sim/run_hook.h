// A host's turn while the simulator runs: a viewer shows progress, lets the page's event loop run,
// or stops a run by throwing from the hook (the launch then fails with that exception).
#pragma once
#include <cstdint>

namespace rl::sim {

// Called on the host thread that runs a launch's blocks: after each block (`done` of `blocks` blocks
// of the launch finished), and after each round of a block's scheduler (`blocks` is 0), so that a
// block that never ends (a kernel that loops forever between barriers) still gives the host its turn.
// With several host threads it is called on each of them, concurrently.
using RunHook = void (*)(std::uint64_t done, std::uint64_t blocks);
// Null: none (the default). Set it only while no launch runs.
void set_run_hook(RunHook hook);
RunHook run_hook();

}  // namespace rl::sim

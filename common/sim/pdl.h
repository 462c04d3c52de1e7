// Programmatic dependent launch, device side, on the simulator (CUDA's names and signatures).
// A grid launched with rl::LaunchAttributes::programmatic_dependency may start before the grid
// before it has finished; cudaGridDependencySynchronize() waits until that grid has completed and
// its writes are visible. The simulator runs the dependent grid's first cluster up to this call
// before the preceding grid runs at all (the earliest order CUDA allows), so reading that grid's
// output before the call reads what was there before it ran. Without the attribute it returns at
// once, as in CUDA.
#pragma once
#include <source_location>

#include "common/sim/runtime.h"

inline void cudaGridDependencySynchronize(
    std::source_location loc = std::source_location::current()) {
  rl::sim::detail::grid_dependency_sync(loc);
}

// Lets the dependent grid start early. The simulator already starts it as early as it can (as if
// every block triggered at its start), so this changes nothing. It never makes writes visible:
// only cudaGridDependencySynchronize() in the dependent grid does.
inline void cudaTriggerProgrammaticLaunchCompletion() {}

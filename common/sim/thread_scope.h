// libcu++'s thread scopes, one definition for the simulator's <cuda/barrier> and <cuda/atomic>.
#pragma once

namespace cuda {

enum thread_scope {
  thread_scope_system,
  thread_scope_device,
  thread_scope_cluster,
  thread_scope_block,
  thread_scope_thread,
};

}  // namespace cuda

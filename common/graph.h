#pragma once
// One way to record a plan's launches once and replay them with one call (lesson 15), whichever
// backend compiles it. On the GPU these are CUDA's stream capture and graphs:
//     begin_recording   cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal)
//     end_recording     cudaStreamEndCapture, then cudaGraphInstantiate
//     replay            cudaGraphLaunch
//     is_recording      cudaStreamIsCapturing
// on the simulator the launches that common/launch.h makes are recorded (common/sim/capture.h) and
// run again, in order, at each replay.
#include <utility>
#include <vector>

#include "common/cuda_compat.h"
#if defined(__CUDACC__)
#include "common/backends/gpu/check.h"
#endif

RL_NAMESPACE_BEGIN

// A recording, ready to replay; empty until end_recording fills it. Move-only: it owns the graph.
class LaunchGraph {
 public:
  LaunchGraph() = default;
  LaunchGraph(LaunchGraph&& o) noexcept { swap(o); }
  LaunchGraph& operator=(LaunchGraph&& o) noexcept {
    LaunchGraph(std::move(o)).swap(*this);
    return *this;
  }
  LaunchGraph(const LaunchGraph&) = delete;
  LaunchGraph& operator=(const LaunchGraph&) = delete;
#if defined(__CUDACC__)
  ~LaunchGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  explicit operator bool() const { return exec_ != nullptr; }
#else
  explicit operator bool() const { return recorded_; }
#endif

 private:
  void swap(LaunchGraph& o) noexcept {
#if defined(__CUDACC__)
    std::swap(exec_, o.exec_);
#else
    std::swap(launches_, o.launches_);
    std::swap(recorded_, o.recorded_);
#endif
  }
#if defined(__CUDACC__)
  cudaGraphExec_t exec_ = nullptr;
#else
  std::vector<sim::RecordedLaunch> launches_;
  bool recorded_ = false;
#endif
  friend LaunchGraph end_recording(void* stream);
  friend void abandon_recording(void* stream);
  friend void replay(const LaunchGraph& graph, void* stream);
};

// From here until end_recording, this thread's launches on `stream` are recorded, not run.
inline void begin_recording(void* stream) {
#if defined(__CUDACC__)
  check_cuda(
      cudaStreamBeginCapture(static_cast<cudaStream_t>(stream), cudaStreamCaptureModeThreadLocal),
      "cudaStreamBeginCapture");
#else
  (void)stream;
  sim::begin_capture();
#endif
}

// Whether `stream` is being recorded (by this code or by a caller recording a bigger graph).
inline bool is_recording(void* stream) {
#if defined(__CUDACC__)
  cudaStreamCaptureStatus status{};
  check_cuda(cudaStreamIsCapturing(static_cast<cudaStream_t>(stream), &status),
             "cudaStreamIsCapturing");
  return status == cudaStreamCaptureStatusActive;
#else
  (void)stream;
  return sim::capturing();
#endif
}

// Ends the recording and makes it ready to replay.
inline LaunchGraph end_recording(void* stream) {
  LaunchGraph g;
#if defined(__CUDACC__)
  cudaGraph_t graph{};
  check_cuda(cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &graph),
             "cudaStreamEndCapture");
  const cudaError_t e = cudaGraphInstantiate(&g.exec_, graph, 0);
  cudaGraphDestroy(graph);  // the executable graph is a copy: the template is not needed
  check_cuda(e, "cudaGraphInstantiate");
#else
  (void)stream;
  g.launches_ = sim::end_capture();
  g.recorded_ = true;
#endif
  return g;
}

// Ends a recording that went wrong (a launch in it threw, or its end was never reached) and drops
// what it held, so that `stream` runs launches again.
inline void abandon_recording(void* stream) {
#if defined(__CUDACC__)
  cudaGraph_t graph{};
  if (cudaStreamEndCapture(static_cast<cudaStream_t>(stream), &graph) == cudaSuccess && graph)
    cudaGraphDestroy(graph);
  cudaGetLastError();  // the failed capture's error is the caller's to report
#else
  (void)stream;
  if (sim::capturing()) sim::end_capture();
#endif
}

// Runs the recorded launches again, in stream order: one host call for all of them.
inline void replay(const LaunchGraph& graph, void* stream) {
#if defined(__CUDACC__)
  check_cuda(cudaGraphLaunch(graph.exec_, static_cast<cudaStream_t>(stream)), "cudaGraphLaunch");
#else
  (void)stream;
  for (const auto& launch : graph.launches_) launch();
#endif
}

RL_NAMESPACE_END

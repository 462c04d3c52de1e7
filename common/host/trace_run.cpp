#include "common/host/trace_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "common/device/trace_event.h"
#include "common/host/cli.h"
#include "common/host/launch_observer.h"
#include "common/trace/trace_limits.h"

namespace rl {
namespace {

// A float as JSON: a number, or null for NaN and infinities (JSON has neither).
nlohmann::json number(float v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// Global addresses back to (buffer, index): the input, the plan's scratch, the output.
struct AddressMap {
  std::uintptr_t input, input_end, scratch, scratch_end, output;
  std::pair<std::string, std::int64_t> operator()(TraceSpace space, std::uint64_t where) const {
    switch (space) {
      case TraceSpace::none:
        return {"", -1};
      case TraceSpace::constant:
        return {"const", -1};
      case TraceSpace::event:
        return {"event", static_cast<std::int64_t>(where)};
      case TraceSpace::shared:
        return {"shared", static_cast<std::int64_t>(where)};
      case TraceSpace::reg:
        return {"register", static_cast<std::int64_t>(where)};
      case TraceSpace::global:
        break;
    }
    const auto a = static_cast<std::uintptr_t>(where);
    if (a >= input && a < input_end)
      return {"input", static_cast<std::int64_t>((a - input) / sizeof(float))};
    if (a >= scratch && a < scratch_end)
      return {"scratch", static_cast<std::int64_t>((a - scratch) / sizeof(float))};
    if (a == output) return {"output", 0};
    throw std::runtime_error(
        "trace: an event names a global address outside the input, scratch and output buffers");
  }
};

}  // namespace

std::string lesson_source_path(const Plan& r) {
  // the file this build compiled (a student's, say)
  if (!r.source.empty()) return std::string(r.source);
  char folder[16];
  std::snprintf(folder, sizeof folder, "%02d_", r.lesson);
  return "lessons/" + std::string(folder) + std::string(r.slug) + "/" + std::string(r.slug) +
         ".cuh";
}

nlohmann::json record_trace(Session& session, const Plan& r, unsigned block,
                            const TraceOptions& options) {
  if (!r.reduce_traced || !r.attach_trace)
    throw UsageError("lesson " + std::to_string(r.lesson) + " (" + std::string(r.slug) +
                     ") cannot be traced: its kernels are NVIDIA's library code");
  Device& device = session.device();
  const std::uint64_t n = session.n();
  const DeviceShape shape = device.shape();
  const unsigned capacity = options.capacity ? options.capacity
                                             : static_cast<unsigned>(std::min<std::uint64_t>(
                                                   64 * n + (1u << 16), std::uint64_t{1} << 24));

  DeviceBuffer events(device, std::size_t{capacity} * sizeof(TraceEvent));
  DeviceBuffer count(device, sizeof(unsigned));
  DeviceBuffer out(device, sizeof(float));
  DeviceBuffer scratch(device, r.scratch_bytes(n, block, shape));
  const unsigned zero = 0;
  device.upload(count.get(), &zero, sizeof zero);
  device.poison(out.get(), sizeof(float));
  if (scratch.bytes()) device.poison(scratch.get(), scratch.bytes());
  // A slot a thread for the line that called a traced helper (traced.h's CallSite): more threads
  // than any traced launch starts, all zero.
  constexpr unsigned call_line_slots = 1u << 20;
  DeviceBuffer call_lines(device, std::size_t{call_line_slots} * sizeof(unsigned));
  device.upload(call_lines.get(), std::vector<unsigned>(call_line_slots, 0u).data(),
                call_lines.bytes());
  const TraceBuffer buffer{events.get<TraceEvent>(), capacity, count.get<unsigned>(),
                           call_lines.get<unsigned>(), call_line_slots};
  r.attach_trace(buffer);

  // Each launch starts after the previous one ends (one stream), so the event count read just
  // before a launch is where that launch's events begin.
  struct Launch {
    LaunchShape shape;
    unsigned first_event;
  };
  std::vector<Launch> launches;
  set_launch_observer([&](const LaunchShape& s) {
    device.synchronize();
    unsigned so_far = 0;
    device.download(&so_far, count.get(), sizeof so_far);
    launches.push_back({s, so_far});
  });
  try {
    r.reduce_traced({session.device_input(), out.get<float>(), n, block, scratch.get(), shape,
                     device.stream()});
    device.synchronize();
  } catch (...) {
    set_launch_observer({});
    throw;
  }
  set_launch_observer({});
  r.attach_trace(TraceBuffer{});

  unsigned offered = 0;
  float result = 0.0f;
  device.download(&offered, count.get(), sizeof offered);
  device.download(&result, out.get(), sizeof result);
  if (offered > capacity)
    throw std::runtime_error("trace: " + std::to_string(offered) +
                             " events did not fit the buffer of " + std::to_string(capacity) +
                             "; record a smaller --n");
  std::int64_t most_blocks = 0;
  for (const auto& l : launches) most_blocks = std::max<std::int64_t>(most_blocks, l.shape.grid);
  if (const std::string w = trace_size_warning(offered, most_blocks, static_cast<std::int64_t>(n));
      !w.empty()) {
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  std::vector<TraceEvent> recorded(offered);
  device.download(recorded.data(), events.get(), offered * sizeof(TraceEvent));

  const auto input = reinterpret_cast<std::uintptr_t>(session.device_input());
  const auto scratch_at = reinterpret_cast<std::uintptr_t>(scratch.get());
  const AddressMap map{input, input + static_cast<std::uintptr_t>(n * sizeof(float)), scratch_at,
                       scratch_at + scratch.bytes(), reinterpret_cast<std::uintptr_t>(out.get())};

  nlohmann::json launch_list = nlohmann::json::array();
  for (const auto& l : launches)
    launch_list.push_back(
        {{"kernel", l.shape.kernel}, {"grid", l.shape.grid}, {"block", l.shape.block}});
  nlohmann::json event_list = nlohmann::json::array();
  std::size_t launch = 0;
  for (unsigned e = 0; e < offered; ++e) {
    while (launch + 1 < launches.size() && e >= launches[launch + 1].first_event) ++launch;
    const TraceEvent& ev = recorded[e];
    const bool barrier = is_barrier(ev.kind);
    // A warp barrier's dst is the mask of the lanes that synchronised.
    const auto [dst_space, dst_index] =
        barrier ? std::pair<std::string, std::int64_t>{"", ev.kind == EventKind::warp_barrier
                                                               ? std::int64_t(ev.dst)
                                                               : -1}
                : map(ev.dst_space, ev.dst);
    const auto [a_space, a_index] = map(ev.a.space, ev.a.index);
    const auto [b_space, b_index] = map(ev.b.space, ev.b.index);
    const auto operand_value = [](const TraceOperand& o) {
      return o.space == TraceSpace::none ? nlohmann::json(0) : number(o.value);
    };
    event_list.push_back({launch, std::string(to_string(ev.kind)), ev.block, ev.thread, dst_space,
                          dst_index, a_space, a_index, operand_value(ev.a), b_space, b_index,
                          operand_value(ev.b), barrier ? nlohmann::json(0) : number(ev.value),
                          ev.line});
  }
  return {{"schema", "reducelab.trace"},
          {"version", trace_schema_version},
          {"lesson", r.lesson},
          {"slug", r.slug},
          {"title", r.title},
          {"variant", r.variant},
          {"backend", to_string(device.backend())},
          {"device", device.name()},
          {"source", lesson_source_path(r)},
          {"n", n},
          {"block", block},
          {"seed", session.options().seed},
          {"distribution", to_string(session.options().distribution)},
          {"input", session.host_input()},
          {"result", number(result)},
          {"launches", launch_list},
          {"buffers", {"input", "scratch", "output"}},
          // the simulator reports them; a GPU kernel cannot
          {"barriers", device.backend() == Backend::sim},
          {"capacity", capacity},
          {"overflow", false},
          {"events", event_list}};
}

}  // namespace rl

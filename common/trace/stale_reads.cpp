#include "common/trace/stale_reads.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace rl {

std::string StaleRead::describe() const {
  std::string s = "thread " + std::to_string(reader) + " read shared[" + std::to_string(slot) +
                  "] at line " + std::to_string(read_line) + "; thread " + std::to_string(writer) +
                  " wrote it at line " + std::to_string(write_line) +
                  (write_first ? " before" : " after") +
                  " the read, in the same interval: no __syncthreads";
  if (same_warp) s += " or __syncwarp";
  s += " between";
  return s;
}

namespace {

struct Access {
  int event;
  int thread;
  int operand;  // reads: 0 a, 1 b
  bool atomic;  // an atomic's read of its own dst, or an atomic's write
};

struct Slot {
  std::vector<Access> reads, writes;
};

struct WarpBarrier {
  int event;
  std::uint32_t mask;
};

class BlockScan {
 public:
  BlockScan(const Trace& t, int launch, int block, std::size_t limit, std::vector<StaleRead>& out)
      : t_(t), launch_(launch), block_(block), limit_(limit), out_(out) {}

  void event(int i) {
    const Event& e = t_.events[static_cast<std::size_t>(i)];
    if (e.kind == EventKind::barrier) {
      flush();
      return;
    }
    if (e.kind == EventKind::warp_barrier) {
      warp_barriers_[e.thread / 32].push_back({i, e.mask});
      return;
    }
    const bool atomic = e.kind == EventKind::atomic;
    const Operand* ops[2] = {&e.a, &e.b};
    for (int k = 0; k < 2; ++k) {
      if (ops[k]->loc.space.kind != SpaceKind::shared) continue;
      // An atomic's a is the value its own dst held: a read inside the atomic operation.
      slots_[ops[k]->loc.index].reads.push_back(
          {i, e.thread, k, atomic && k == 0 && ops[k]->loc == e.dst});
    }
    if (e.dst.space.kind == SpaceKind::shared)
      slots_[e.dst.index].writes.push_back({i, e.thread, -1, atomic});
  }

  // Reports the pairs of the interval that ends here and starts the next one.
  void flush() {
    std::vector<StaleRead> found;
    for (const auto& [slot, s] : slots_) {
      for (const Access& r : s.reads) {
        for (const Access& w : s.writes) {
          if (r.thread == w.thread || (r.atomic && w.atomic)) continue;
          const bool same_warp = r.thread / 32 == w.thread / 32;
          if (same_warp && warp_synced(r.thread / 32, r.thread % 32, w.thread % 32,
                                       std::min(r.event, w.event), std::max(r.event, w.event))) {
            continue;
          }
          StaleRead p;
          p.launch = launch_;
          p.block = block_;
          p.slot = slot;
          p.reader = r.thread;
          p.writer = w.thread;
          p.read_event = r.event;
          p.write_event = w.event;
          p.operand = r.operand;
          p.read_line = t_.events[static_cast<std::size_t>(r.event)].line;
          p.write_line = t_.events[static_cast<std::size_t>(w.event)].line;
          p.write_first = w.event < r.event;
          p.same_warp = same_warp;
          found.push_back(p);
        }
      }
    }
    std::sort(found.begin(), found.end(), [](const StaleRead& x, const StaleRead& y) {
      return std::tuple{x.read_event, x.operand, x.write_event} <
             std::tuple{y.read_event, y.operand, y.write_event};
    });
    for (auto& p : found) {
      if (out_.size() >= limit_) break;
      out_.push_back(std::move(p));
    }
    slots_.clear();
    warp_barriers_.clear();
  }

 private:
  // Whether a warp_barrier of `warp` holding both lanes lies strictly between events lo and hi.
  bool warp_synced(int warp, int lane_a, int lane_b, int lo, int hi) const {
    auto it = warp_barriers_.find(warp);
    if (it == warp_barriers_.end()) return false;
    const std::uint32_t both = (1u << lane_a) | (1u << lane_b);
    const auto& list = it->second;
    auto b = std::upper_bound(list.begin(), list.end(), lo,
                              [](int v, const WarpBarrier& wb) { return v < wb.event; });
    for (; b != list.end() && b->event < hi; ++b) {
      if ((b->mask & both) == both) return true;
    }
    return false;
  }

  const Trace& t_;
  int launch_, block_;
  std::size_t limit_;
  std::vector<StaleRead>& out_;
  std::map<std::int64_t, Slot> slots_;
  std::map<int, std::vector<WarpBarrier>> warp_barriers_;  // by warp, in event order
};

}  // namespace

std::vector<StaleRead> find_stale_reads(const Trace& t, std::size_t limit) {
  std::vector<StaleRead> out;
  if (!t.barriers) return out;
  // Each block's events, in event order (blocks interleave in the file).
  std::map<std::pair<int, int>, std::vector<int>> blocks;
  for (std::size_t i = 0; i < t.events.size(); ++i)
    blocks[{t.events[i].launch, t.events[i].block}].push_back(static_cast<int>(i));
  for (const auto& [lb, idx] : blocks) {
    if (out.size() >= limit) break;
    BlockScan scan(t, lb.first, lb.second, limit, out);
    for (int i : idx) scan.event(i);
    scan.flush();
  }
  // In event order of the reads across blocks too.
  std::stable_sort(out.begin(), out.end(), [](const StaleRead& x, const StaleRead& y) {
    return std::tuple{x.read_event, x.operand, x.write_event} <
           std::tuple{y.read_event, y.operand, y.write_event};
  });
  return out;
}

}  // namespace rl

#pragma once
// Results files (schema `reducelab.results` v1, common/RESULTS.md) as plot-ready series: one per
// (lesson, variant) of (n, GB/s), plus the streaming-read ceiling and CUB from `baselines`.
// No ImGui here.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rl::viewer {

class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunRow {
  int lesson = 0;
  std::string slug, title, variant, backend;
  double n = 0;
  int block = 0;
  bool verified = false;
  std::optional<double> median_ms, gbps, pct_of_ceiling, vs_cub;
  std::optional<double> device_ms;  // the call alone, on the GPU's clock (lesson 00)
  std::string launch;         // "stream", "stream+PDL", "graph", "graph+PDL"; "" in older files
  bool launch_bound = false;  // device time under 80% of the time: the host set the pace
  int gpus = 0;               // several-GPU runs (lesson 22) say how many GPUs; 0: a one-GPU run
  std::optional<double> scaling_efficiency;
};

struct BaselineRow {
  double n = 0;
  std::optional<double> stream_read_gbps, copy_gbps, cub_gbps;
};

struct ResultsFile {
  std::string path;
  std::string backend, device, created_utc;
  std::optional<double> theoretical_gbps;  // the device's DRAM peak, when reported
  std::vector<RunRow> runs;
  std::vector<BaselineRow> baselines;
};

ResultsFile parse_results(std::string_view text, const std::string& name);
ResultsFile load_results(const std::string& path);

struct SeriesPoint {
  double n = 0;
  double gbps = 0;
  double pct_of_ceiling = -1;  // -1: unknown
  double vs_cub = -1;
  double median_ms = -1;
  double device_ms = -1;  // -1: unknown
  std::string launch;
  bool launch_bound = false;
  bool verified = true;
  int block = 0;  // the run's block size; 0: unknown (and for the ceiling and CUB)
};

enum class SeriesKind { lesson, ceiling, cub };

struct Series {
  SeriesKind kind = SeriesKind::lesson;
  int lesson = 0;
  std::string variant;
  // "03 sequential_addressing", "08 warp_shuffle / butterfly", "ceiling (stream read)"
  std::string label;
  std::string title;
  std::vector<SeriesPoint> points;  // sorted by n, one per n
};

// Merges the files' runs: one series per (lesson, variant), in the order they first appear (a
// bench file lists them in the order the course climbs the ladder), then the ceiling and CUB. A
// later file's point at the same n replaces an earlier one.
std::vector<Series> build_series(const std::vector<ResultsFile>& files);

// One run's results (one results file): a picture never mixes runs, so never devices either; each
// device has its own peak and ceiling, and each run its own session.
struct ScalingPoint {
  int gpus = 1;
  double n = 0;
  double gbps = 0;         // aggregate: all GPUs' input bytes / the median time
  double efficiency = -1;  // against gpus x the one-GPU rate; -1: unknown
  bool verified = true;
};

struct RunResults {
  std::string device;          // "NVIDIA H100 80GB HBM3" (the backend where a file names none)
  std::string created_utc;     // when the run was recorded, as its file says ("" when it does not)
  std::optional<double> peak;  // its DRAM peak, when a file reports it
  std::vector<Series> series;  // its one-GPU runs, with the ceiling and CUB measured on it
  std::vector<ScalingPoint> scaling;  // its several-GPU runs (lesson 22), by GPU count
  std::string file;
  int max_gpus = 1;
  // For a picker: "NVIDIA H100 80GB HBM3, 2026-11-23 17:50 UTC (h100-bench.json)".
  std::string label() const;
};

// One RunResults per file, in the order given.
std::vector<RunResults> group_by_run(const std::vector<ResultsFile>& files);

// Every n that some lesson series has a point at, ascending.
std::vector<double> sizes_of(const std::vector<Series>& series);

struct Bar {
  std::string label;
  std::string title;
  double gbps = 0;
  double speedup = 0;         // over lesson 01 at the same n (0: lesson 01 not measured there)
  double pct_of_ceiling = 0;  // from the run; or from the ceiling series; 0 when unknown
  double median_ms = -1, device_ms = -1;  // the time a call and its device time; -1: unknown
  std::string launch;                     // how the run's calls were launched ("" unknown)
  bool launch_bound = false;
};

// The ladder at one size: the lessons' own kernels (variant "") plus variants, in lesson order.
std::vector<Bar> bars_at(const std::vector<Series>& series, double n, bool include_variants);

// A bar's times for its tooltip, each on a line of its own after a newline: "5.82 us a call
// (launched stream+PDL)", "device time 4.80 us, a call alone", and where it was launch-bound, that
// the host's launches set the time. Empty where the run recorded neither.
std::string bar_times_text(const Bar& b);

std::string format_size(double n);  // "2^24" for powers of two, else the number

}  // namespace rl::viewer

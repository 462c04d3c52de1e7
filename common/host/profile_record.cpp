#include "common/host/profile_record.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "common/host/kernel_name.h"
#include "common/host/results.h"
#include "common/host/table.h"

namespace rl {
namespace {

// A counter of the record and the ncu metric it is read from; `count`: a whole number (bytes,
// instructions), written as an integer.
struct Counter {
  const char* key;
  const char* metric;
  bool count;
};
constexpr Counter counters[] = {
    {"duration_us", "gpu__time_duration.sum", false},
    {"dram_pct_of_peak", "dram__throughput.avg.pct_of_peak_sustained_elapsed", false},
    {"dram_bytes_read", "dram__bytes_read.sum", true},
    {"achieved_occupancy_pct", "sm__warps_active.avg.pct_of_peak_sustained_active", false},
    {"theoretical_occupancy_pct", "sm__maximum_warps_per_active_cycle_pct", false},
    {"registers_per_thread", "launch__registers_per_thread", true},
    {"shared_ld_requests", "smsp__inst_executed_op_shared_ld.sum", true},
    {"shared_st_requests", "smsp__inst_executed_op_shared_st.sum", true},
    {"shared_ld_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", true},
    {"shared_st_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", true},
    {"shared_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", true},
    {"shared_st_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", true},
    {"threads_per_instruction", "smsp__thread_inst_executed_per_inst_executed.ratio", false},
    // the same counting only the threads whose predicate is on: a branch the compiler turned into
    // predicated instructions diverges all the same, and only this one sees it
    {"threads_per_instruction_pred_on",
     "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", false},
    {"instructions", "smsp__inst_executed.sum", true},
};

// Resident blocks per SM each resource allows; the limiter is the smallest, the first of this
// order on a tie.
constexpr std::array<std::pair<const char*, const char*>, 4> block_limits = {{
    {"registers", "launch__occupancy_limit_registers"},
    {"shared_mem", "launch__occupancy_limit_shared_mem"},
    {"blocks", "launch__occupancy_limit_blocks"},
    {"warps", "launch__occupancy_limit_warps"},
}};

constexpr const char* grid_metric = "launch__grid_size";
constexpr const char* block_metric = "launch__block_size";

// Warp stall reasons, each as warps stalled per issued instruction (Nsight Compute's "Warp State
// Statistics"): smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
constexpr const char* stall_reasons[] = {"long_scoreboard",
                                         "barrier",
                                         "membar",
                                         "short_scoreboard",
                                         "wait",
                                         "lg_throttle",
                                         "mio_throttle",
                                         "math_pipe_throttle",
                                         "not_selected",
                                         "no_instruction",
                                         "branch_resolving",
                                         "drain",
                                         "dispatch_stall",
                                         "sleeping",
                                         "tex_throttle",
                                         "imc_miss",
                                         "misc"};
constexpr std::size_t top_stall_count = 3;

std::string stall_metric(std::string_view reason) {
  return "smsp__average_warps_issue_stalled_" + std::string(reason) + "_per_issue_active.ratio";
}

// One row's values by metric name.
class Row {
 public:
  Row(const NcuTable& t, const std::vector<std::string>& row) : table_(t), row_(row) {}
  std::optional<double> value(std::string_view metric) const {
    const auto c = table_.column(metric);
    if (!c) return std::nullopt;
    return parse_ncu_number(row_[*c]);
  }
  std::string_view unit(std::string_view metric) const {
    const auto c = table_.column(metric);
    return c ? std::string_view(table_.units[*c]) : std::string_view{};
  }
  std::string text(std::string_view column) const {
    const auto c = table_.column(column);
    if (!c) throw std::runtime_error("ncu CSV: no column '" + std::string(column) + "'");
    return row_[*c];
  }

 private:
  const NcuTable& table_;
  const std::vector<std::string>& row_;
};

nlohmann::json number(std::optional<double> v, bool count) {
  if (!v) return nullptr;
  if (count) return static_cast<std::uint64_t>(std::llround(*v));
  return *v;
}

nlohmann::json ratio(std::optional<double> num, std::optional<double> den) {
  if (!num || !den || *den == 0) return nullptr;  // no requests: nothing per request
  return *num / *den;
}

nlohmann::json counters_of(const Row& r) {
  nlohmann::json c = nlohmann::json::object();
  for (const auto& k : counters) {
    auto v = r.value(k.metric);
    if (v && std::string_view(k.key) == "duration_us") v = to_microseconds(*v, r.unit(k.metric));
    if (v && std::string_view(k.key) == "dram_bytes_read" && r.unit(k.metric) != "byte" &&
        !r.unit(k.metric).empty())
      throw std::runtime_error("ncu CSV: dram__bytes_read.sum in '" +
                               std::string(r.unit(k.metric)) + "', not bytes (--print-units base)");
    c[k.key] = number(v, k.count);
  }
  // The limiter: the resource allowing the fewest resident blocks per SM.
  nlohmann::json limits = nlohmann::json::object();
  std::optional<double> fewest;
  nlohmann::json limiter = nullptr;
  for (const auto& [name, metric] : block_limits) {
    const auto v = r.value(metric);
    limits[name] = number(v, true);
    if (v && (!fewest || *v < *fewest)) fewest = v, limiter = name;
  }
  c["occupancy_limiter"] = limiter;
  c["blocks_per_sm_limit"] = limits;
  for (const char* op : {"ld", "st"}) {
    const std::string s(op);
    c["shared_" + s + "_wavefronts_per_request"] =
        ratio(r.value("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + s + ".sum"),
              r.value("smsp__inst_executed_op_shared_" + s + ".sum"));
    c["shared_" + s + "_conflicts_per_request"] =
        ratio(r.value("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + s + ".sum"),
              r.value("smsp__inst_executed_op_shared_" + s + ".sum"));
  }
  std::vector<std::pair<std::string, double>> stalls;
  for (const char* reason : stall_reasons)
    if (const auto v = r.value(stall_metric(reason))) stalls.emplace_back(reason, *v);
  // Largest first; a tie keeps the order of stall_reasons.
  std::stable_sort(stalls.begin(), stalls.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < stalls.size() && i < top_stall_count; ++i)
    top.push_back({{"reason", stalls[i].first}, {"warps_per_issue", stalls[i].second}});
  c["top_stalls"] = top;
  return c;
}

std::string cell(const nlohmann::json& v, int decimals, const std::string& suffix = "") {
  return v.is_number() ? fixed(v.get<double>(), decimals) + suffix : "-";
}

}  // namespace

std::vector<std::string> profile_metric_names() {
  std::vector<std::string> names;
  for (const auto& k : counters) names.emplace_back(k.metric);
  for (const auto& [name, metric] : block_limits) names.emplace_back(metric);
  names.emplace_back(grid_metric);
  names.emplace_back(block_metric);
  for (const char* reason : stall_reasons) names.push_back(stall_metric(reason));
  return names;
}

nlohmann::json profile_metric_map() {
  nlohmann::json m = nlohmann::json::object();
  m["grid"] = grid_metric;
  m["block_threads"] = block_metric;
  for (const auto& k : counters) m[k.key] = k.metric;
  for (const auto& [name, metric] : block_limits)
    m["blocks_per_sm_limit." + std::string(name)] = metric;
  m["occupancy_limiter"] =
      "the smallest of blocks_per_sm_limit (on a tie the first of registers, shared_mem, blocks, "
      "warps)";
  for (const char* op : {"ld", "st"}) {
    const std::string s(op);
    m["shared_" + s + "_wavefronts_per_request"] =
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + s +
        ".sum / smsp__inst_executed_op_shared_" + s + ".sum";
    m["shared_" + s + "_conflicts_per_request"] =
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + s +
        ".sum / smsp__inst_executed_op_shared_" + s + ".sum";
  }
  m["top_stalls"] = stall_metric("<reason>") + ", the 3 largest";
  return m;
}

std::vector<std::string> missing_metrics(const NcuTable& table) {
  std::vector<std::string> missing;
  for (const auto& name : profile_metric_names())
    if (!table.column(name)) missing.push_back(name);
  return missing;
}

std::vector<nlohmann::json> profile_records(const NcuTable& table, const ProfiledCall& call) {
  std::vector<nlohmann::json> records;
  for (std::size_t launch = 0; launch < table.rows.size(); ++launch) {
    const Row r(table, table.rows[launch]);
    records.push_back({{"lesson", call.lesson},
                       {"slug", call.slug},
                       {"variant", call.variant},
                       {"n", call.n},
                       {"block", call.block},
                       {"launch", launch},
                       {"kernel", kernel_without_arguments(r.text("Kernel Name"))},
                       {"grid", number(r.value(grid_metric), true)},
                       {"block_threads", number(r.value(block_metric), true)},
                       {"counters", counters_of(r)}});
  }
  return records;
}

nlohmann::json profile_document(const nlohmann::json& device, const std::string& tool,
                                const std::string& ncu_options,
                                const std::vector<nlohmann::json>& kernels) {
  return {{"schema", "reducelab.profile"},   {"version", profile_schema_version},
          {"created_utc", utc_now()},        {"tool", tool},
          {"ncu_options", ncu_options},      {"device", device},
          {"metrics", profile_metric_map()}, {"kernels", kernels}};
}

void check_profile_document(const nlohmann::json& doc) {
  if (!doc.is_object() || doc.value("schema", "") != "reducelab.profile")
    throw std::runtime_error(
        "not a reducelab.profile record (its \"schema\" is not "
        "\"reducelab.profile\")");
  if (doc.value("version", 0) != profile_schema_version)
    throw std::runtime_error("reducelab.profile version " + doc["version"].dump() +
                             ", this program reads version " +
                             std::to_string(profile_schema_version));
  if (!doc.contains("kernels") || !doc["kernels"].is_array())
    throw std::runtime_error("reducelab.profile record without a \"kernels\" list");
}

std::string size_label(std::uint64_t n) {
  if (n != 0 && (n & (n - 1)) == 0) {
    int e = 0;
    while ((std::uint64_t{1} << e) != n) ++e;
    return "2^" + std::to_string(e);
  }
  return std::to_string(n);
}

std::string lesson_label(int lesson) {
  std::string label = std::to_string(lesson);
  if (lesson < 10) label.insert(label.begin(), '0');
  return label;
}

void print_profile_table(std::ostream& out, const nlohmann::json& doc) {
  check_profile_document(doc);
  Table t({"lesson", "variant", "n", "kernel", "grid x block", "time", "DRAM %", "occupancy %",
           "limiter (blocks/SM)", "conflicts/request ld / st", "threads/inst",
           "top stall (warps/issue)"});
  for (const auto& k : doc["kernels"]) {
    const auto& c = k.at("counters");
    const std::string limiter =
        c.at("occupancy_limiter").is_string()
            ? c["occupancy_limiter"].get<std::string>() + " (" +
                  c.at("blocks_per_sm_limit").at(c["occupancy_limiter"].get<std::string>()).dump() +
                  ")"
            : "-";
    const auto& stalls = c.at("top_stalls");
    const std::string stall = stalls.empty()
                                  ? "-"
                                  : stalls[0].at("reason").get<std::string>() + " " +
                                        fixed(stalls[0].at("warps_per_issue").get<double>(), 1);
    std::string launch = "#";
    launch += std::to_string(k.at("launch").get<unsigned>()) + " " +
              kernel_identifier(k.at("kernel").get<std::string>());
    t.add({lesson_label(k.at("lesson").get<int>()),
           k.at("variant").get<std::string>().empty() ? "-" : k["variant"].get<std::string>(),
           size_label(k.at("n").get<std::uint64_t>()), launch,
           k.at("grid").is_number() ? k["grid"].dump() + " x " + k.at("block_threads").dump() : "-",
           c.at("duration_us").is_number() ? duration(c["duration_us"].get<double>() / 1e3) : "-",
           cell(c.at("dram_pct_of_peak"), 1),
           cell(c.at("achieved_occupancy_pct"), 1) + " of " +
               cell(c.at("theoretical_occupancy_pct"), 0),
           limiter,
           cell(c.at("shared_ld_conflicts_per_request"), 2) + " / " +
               cell(c.at("shared_st_conflicts_per_request"), 2),
           cell(c.at("threads_per_instruction"), 1), stall});
  }
  t.print(out);
}

}  // namespace rl

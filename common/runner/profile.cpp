#include "common/runner/profile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/host/course.h"
#include "common/host/harness.h"
#include "common/host/profile_record.h"
#include "common/host/results.h"
#include "common/runner/mode_options.h"

#ifndef RL_CUDA_BIN_DIR
#define RL_CUDA_BIN_DIR "/usr/local/cuda/bin"
#endif

namespace rl {
namespace {

namespace fs = std::filesystem;

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// --ncu where given, else ncu on PATH, else the CUDA toolkit's (the one this build was configured
// with). Throws UsageError, one line, where there is none.
std::string find_ncu(const std::string& given) {
  if (!given.empty()) {
    if (!is_executable(given)) throw UsageError("--ncu: '" + given + "' is not an executable file");
    return given;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (const fs::path p = fs::path(dir.empty() ? "." : dir) / "ncu"; is_executable(p))
      return p.string();
  if (const fs::path p = fs::path(RL_CUDA_BIN_DIR) / "ncu"; is_executable(p)) return p.string();
  throw UsageError("profile needs Nsight Compute's ncu, which is neither on PATH nor in " +
                   std::string(RL_CUDA_BIN_DIR) +
                   " (install Nsight Compute, or name it with --ncu)");
}

struct Captured {
  int exit_code = 0;
  std::string out, err;
};

// A temporary file, removed when this goes.
class TempFile {
 public:
  TempFile() {
    std::string pattern = (fs::temp_directory_path() / "reducelab-profile-XXXXXX").string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0) throw std::runtime_error("profile: cannot create a temporary file");
    path_ = pattern;
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  std::string text() const {
    std::ifstream in(path_);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

 private:
  int fd_ = -1;
  std::string path_;
};

// Runs args[0] with args, its stdout and stderr kept (in files: ncu's CSV of many metrics is
// large, and a pipe read after the child ends would block it). A child still running after
// `limit_s` is killed with the processes it started (ncu's profiled program): its own process
// group, made for it here.
Captured run_captured(const std::vector<std::string>& args, int limit_s) {
  TempFile out, err;
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("profile: cannot start " + args[0]);
  if (child == 0) {
    ::setpgid(0, 0);
    ::dup2(out.fd(), STDOUT_FILENO);
    ::dup2(err.fd(), STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here: whichever of the two runs first
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error("profile: lost " + args[0]);
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-child, SIGKILL);
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      throw std::runtime_error("no result within " + std::to_string(limit_s) + " s: stopped");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out.text(), err.text()};
}

// "2025.3.0.0 (build ...)" from `ncu --version`.
std::string ncu_version(const std::string& ncu) {
  const Captured c = run_captured({ncu, "--version"}, 60);
  std::istringstream lines(c.out);
  for (std::string line; std::getline(lines, line);)
    if (const auto at = line.find("Version "); at != std::string::npos) return line.substr(at + 8);
  throw std::runtime_error("profile: '" + ncu + " --version' printed no version (exit code " +
                           std::to_string(c.exit_code) + ")");
}

// What went wrong in a child, in one line: ncu's first ==ERROR== line, else the profiled
// program's "error:" line, else stderr's last line.
std::string first_error(const Captured& c) {
  std::string last;
  for (const std::string* text : {&c.out, &c.err}) {
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("==ERROR==") != std::string::npos || line.starts_with("error: ")) return line;
      if (!line.empty() && text == &c.err) last = line;
    }
  }
  return last.empty() ? "no message" : last;
}

std::string join(const std::vector<std::string>& items, const std::string& between) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : between) + s;
  return out;
}

struct Run {
  const Plan* plan;
  std::uint64_t n;
  unsigned block;
};

std::string describe(const Run& r) {
  return plan_label(*r.plan) + ", n = " + size_label(r.n) + ", block " + std::to_string(r.block);
}

// What profile-call's --plan takes: "11", "11/atomic_finish".
std::string plan_spec(const Plan& p) {
  std::string spec = std::to_string(p.lesson);
  if (!p.variant.empty()) spec.append("/").append(p.variant);
  return spec;
}

}  // namespace

int run_profile(const ProfileOptions& o) {
  if (!o.from.empty()) {
    const auto doc = read_json_option(o.from, "--from");
    try {
      print_profile_table(std::cout, doc);
    } catch (const std::exception& e) {
      throw UsageError("--from: '" + o.from + "': " + e.what());
    }
    return exit_ok;
  }
  const auto sizes = parse_size_list(o.sizes, "--n");
  const Plans& all = ladder_plans();
  const auto lessons =
      o.lessons.empty() ? std::vector<int>{} : parse_lesson_list(o.lessons, "--lessons", all);
  if (!o.json_path.empty()) check_output_path(o.json_path, "--json");
  const std::string ncu = find_ncu(o.ncu);
  std::string why;
  auto gpu = make_gpu_device(&why);
  if (!gpu) throw UsageError("profile needs an NVIDIA GPU: " + why);
  const nlohmann::json device = gpu->describe();
  const std::string tool = "ncu " + ncu_version(ncu);
  std::cout << "profile: " << gpu->name() << ", " << tool << " (" << ncu << ")\n";
  gpu.reset();  // the runner's own stream and buffers are not needed while ncu works

  // Every GPU plan at block 256 and, where the plan prefers another, at that one too.
  constexpr unsigned common_block = 256;
  std::vector<Run> runs;
  for (const Plan& p : all) {
    if (p.backend != Backend::gpu) continue;
    if (!lessons.empty() && std::find(lessons.begin(), lessons.end(), p.lesson) == lessons.end())
      continue;
    std::vector<unsigned> blocks{common_block};
    if (p.preferred_block != 0 && p.preferred_block != common_block)
      blocks.push_back(p.preferred_block);
    for (const std::uint64_t n : sizes)
      for (const unsigned b : blocks) runs.push_back({&p, n, b});
  }
  if (runs.empty())
    throw UsageError("profile: this build has no GPU version of the lessons asked for");

  // Base clocks and caches flushed before every replay pass: each kernel's input comes from DRAM,
  // and its counters do not depend on what ran before it.
  const std::vector<std::string> flags{"--csv", "--page",          "raw",  "--print-units",
                                       "base",  "--clock-control", "base", "--cache-control",
                                       "all"};
  const std::string self = fs::canonical("/proc/self/exe").string();
  // One call takes seconds (3 s for lesson 02 at 2^20 on the H100): two minutes means it is stuck.
  constexpr int call_limit_s = 120;
  const auto started = std::chrono::steady_clock::now();
  std::vector<nlohmann::json> kernels;
  std::vector<std::string> failures, missing;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    std::cerr << "\rprofile: " << (i + 1) << " of " << runs.size() << ": " << describe(r)
              << "          " << std::flush;
    std::vector<std::string> args{ncu};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--metrics", join(profile_metric_names(), ","), self, "profile-call",
                             "--plan", plan_spec(*r.plan), "--n", std::to_string(r.n), "--block",
                             std::to_string(r.block)});
    try {
      const Captured c = run_captured(args, call_limit_s);
      if (c.exit_code != 0)
        throw std::runtime_error("ncu exited with code " + std::to_string(c.exit_code) + ": " +
                                 first_error(c));
      const NcuTable table = parse_ncu_csv(c.out);
      if (table.rows.empty()) throw std::runtime_error("ncu profiled no kernel");
      for (const auto& m : missing_metrics(table))
        if (std::find(missing.begin(), missing.end(), m) == missing.end()) missing.push_back(m);
      const auto records = profile_records(table, {r.plan->lesson, std::string(r.plan->slug),
                                                   std::string(r.plan->variant), r.n, r.block});
      kernels.insert(kernels.end(), records.begin(), records.end());
    } catch (const std::exception& e) {
      failures.push_back(describe(r) + ": " + e.what());
    }
  }
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  std::cerr << "\rprofile: " << runs.size() << " calls profiled in " << seconds << " s, "
            << failures.size() << " failed                              \n";
  for (const auto& f : failures) std::cerr << "profile: FAILED: " << f << '\n';
  if (!missing.empty())
    std::cerr << "profile: ncu gave no values (null in the record) for: " << join(missing, ", ")
              << '\n';
  const auto doc = profile_document(device, tool, join(flags, " "), kernels);
  std::cout << '\n';
  print_profile_table(std::cout, doc);
  if (!o.json_path.empty()) {
    write_json_file(o.json_path, doc);
    std::cout << "\nwrote " << kernels.size() << " kernel records of " << runs.size()
              << " calls to " << o.json_path << '\n';
  }
  return failures.empty() ? exit_ok : exit_failed;
}

int profile_call(const ProfileCallOptions& o) {
  const std::size_t slash = o.plan.find('/');
  const auto lesson = static_cast<int>(parse_count(o.plan.substr(0, slash), "--plan", 99));
  const std::string variant = slash == std::string::npos ? "" : o.plan.substr(slash + 1);
  const Plan* plan = find_plan(lesson, Backend::gpu, variant);
  if (!plan) throw UsageError("--plan: this build has no GPU plan '" + o.plan + "'");
  RunOptions options;
  options.n = parse_count(o.n, "--n");
  options.block = static_cast<unsigned>(parse_count(o.block, "--block", 1024));
  validate(options);
  std::string why;
  const auto gpu = make_gpu_device(&why);
  if (!gpu) throw UsageError("profile-call needs an NVIDIA GPU: " + why);
  Session session(*gpu, options);
  session.check_fits(options.n);
  session.prepare(options.n);
  const CaseResult r = session.run(*plan, options.block, false);
  if (!r.check.verified) {
    std::cerr << "error: lesson " << lesson << " " << variant << " gave " << r.check.got
              << ", the reference is " << r.check.reference.sum << '\n';
    return exit_failed;
  }
  return exit_ok;
}

}  // namespace rl

#include "common/runner/beyond.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"  // UsageError
#include "common/host/results.h"

namespace rl {
namespace {

namespace fs = std::filesystem;

struct Lesson {
  const char* exe;
  bool takes_baseline;  // lessons 19-21 compare with torch.sum
};
constexpr Lesson lessons[] = {{"18_operators_and_types", false},
                              {"19_row_reduce", true},
                              {"20_column_reduce", true},
                              {"21_any_axes", true}};

// Runs argv[0] with argv, its output on ours; returns its exit code (128 + signal when killed).
int run_program(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("beyond: cannot start " + args[0]);
  if (child == 0) {
    ::execv(argv[0], argv.data());
    std::cerr << "error: beyond: cannot start " << args[0] << '\n';
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

nlohmann::json read_record(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("beyond: " + path.string() + " was not written");
  // our own lessons wrote it: a parse error is a bug, and says so
  return nlohmann::json::parse(in);
}

}  // namespace

int run_beyond(const char* self, const BeyondOptions& o) {
  const fs::path dir = fs::absolute(self).parent_path();
  for (const auto& l : lessons)
    if (!fs::exists(dir / l.exe))
      throw UsageError(std::string("beyond: ") + l.exe + " is not built in " + dir.string());
  if (!o.baseline_path.empty() && !fs::exists(o.baseline_path))
    throw UsageError("beyond: no baseline file " + o.baseline_path);
  // Each lesson writes its own record beside the merged one (or in a scratch folder), removed
  // after.
  const fs::path scratch =
      o.json_path.empty() ? fs::temp_directory_path() : fs::absolute(o.json_path).parent_path();
  nlohmann::json merged = {{"schema", "reducelab.beyond"},
                           {"version", 1},
                           {"runs", nlohmann::json::array()},
                           {"lessons", nlohmann::json::object()}};
  int failed = 0;
  for (const auto& l : lessons) {
    std::cout << "\n== " << l.exe << " ==\n";
    const fs::path record =
        scratch / (".reducelab-beyond-" + std::to_string(::getpid()) + "-" + l.exe + ".json");
    std::vector<std::string> args{(dir / l.exe).string()};
    if (!o.backend.empty()) args.insert(args.end(), {"--backend", o.backend});
    if (l.takes_baseline && !o.baseline_path.empty())
      args.insert(args.end(), {"--baseline", o.baseline_path});
    if (o.check_only) args.push_back("--check-only");
    if (!o.json_path.empty()) args.insert(args.end(), {"--json", record.string()});
    const int code = run_program(args);
    if (code != 0) {
      std::cout << l.exe << ": exit code " << code << '\n';
      ++failed;
    }
    if (o.json_path.empty() || !fs::exists(record)) continue;
    nlohmann::json doc = read_record(record);
    fs::remove(record);
    // the same machine for every lesson; the first lesson's date stands for the record's
    for (const char* key : {"created_utc", "backend", "device"})
      if (!merged.contains(key) && doc.contains(key)) merged[key] = doc[key];
    for (auto run : doc.value("runs", nlohmann::json::array())) {
      run["lesson"] = l.exe;  // the viewer's label starts with it
      merged["runs"].push_back(std::move(run));
    }
    merged["lessons"][l.exe] = std::move(doc);
  }
  if (!o.json_path.empty()) {
    write_json_file(o.json_path, merged);
    std::cout << "\nwrote " << merged["runs"].size() << " runs of " << merged["lessons"].size()
              << " lessons to " << o.json_path << '\n';
  }
  if (failed > 0)
    std::cout << "beyond: " << failed << " of " << std::size(lessons) << " lessons failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace rl

#include "viewer/watch_files.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <system_error>

namespace rl::viewer {
namespace {

namespace fs = std::filesystem;

// The entries of a CMakeCache.txt ("NAME:TYPE=value"), by name; empty when it cannot be read.
std::map<std::string, std::string> read_cache(const fs::path& build) {
  std::map<std::string, std::string> out;
  std::ifstream in(build / "CMakeCache.txt");
  static const std::regex entry(R"(^([A-Za-z0-9_.-]+):[A-Z]+=(.*)$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, entry)) out[m[1]] = m[2];
  }
  return out;
}

// What a build's kernel-sources.txt says of lesson `folder` ("NN_slug<TAB>kind<TAB>file", written by
// common/cmake/ReduceLabLesson.cmake at each configure): {kind, file}, or empty strings.
std::pair<std::string, std::string> kernel_source(const fs::path& build,
                                                  const std::string& folder) {
  std::ifstream in(build / "kernel-sources.txt");
  for (std::string line; std::getline(in, line);) {
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 != std::string::npos && line.substr(0, tab1) == folder)
      return {line.substr(tab1 + 1, tab2 - tab1 - 1), line.substr(tab2 + 1)};
  }
  return {};
}

bool on(const std::string& cmake_bool) {
  static const std::regex yes("^(1|ON|YES|TRUE|Y)$", std::regex::icase);
  return std::regex_match(cmake_bool, yes);
}

// exercise/answers_NN.txt: the student's predictions, data for --check-answers, not code to build.
bool answers_file(const std::string& name) {
  return name.rfind("answers_", 0) == 0 && name.size() > 4 &&
         name.compare(name.size() - 4, 4, ".txt") == 0;
}

std::string absolute(const std::string& p) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal().string() : a.string();
}

// Lesson `nn`'s folder in `tree` and its exercise's file (the one beside HINTS.md and the answers
// to its questions), or why not.
std::string find_lesson(const std::string& tree, const std::string& nn, std::string& folder,
                        std::string& kernel) {
  std::error_code ec;
  const fs::path lessons = fs::path(tree) / "lessons";
  folder.clear();
  kernel.clear();
  for (const auto& e : fs::directory_iterator(lessons, ec))
    if (e.is_directory() && e.path().filename().string().rfind(nn + "_", 0) == 0)
      folder = e.path().filename().string();
  if (folder.empty()) return "--watch: there is no lesson " + nn + " in " + lessons.string();
  for (const auto& e : fs::directory_iterator(lessons / folder / "exercise", ec))
    if (const std::string name = e.path().filename().string();
        e.is_regular_file() && name != "HINTS.md" && !answers_file(name))
      kernel = name;
  if (kernel.empty())
    return "--watch: lesson " + nn + " has no exercise file (nothing in lessons/" + folder +
           "/exercise/ to watch)";
  return "";
}

}  // namespace

FoundTarget find_watch_target(const WatchRequest& r) {
  FoundTarget f;
  WatchTarget& t = f.target;
  if (!std::regex_match(r.lesson, std::regex(R"(\d{1,2})"))) {
    f.error = "--watch takes a lesson number such as 03 (got '" + r.lesson + "')";
    return f;
  }
  const std::string nn = (r.lesson.size() == 1 ? "0" : "") + r.lesson;
  // The lesson first: a lesson that does not exist is the first thing to say.
  std::string kernel;  // the exercise's file
  f.error = find_lesson(r.viewer_tree, nn, t.folder, kernel);
  if (f.error.empty() && r.traced && !r.traced(std::stoi(nn)))
    f.error = "--watch: lesson " + nn +
              "'s executable records no trace of its own kernel on the simulator (--trace), "
              "so there is no tree to watch";
  if (!f.error.empty()) return f;

  // The student build: configured, and in student mode. It names the tree it compiles.
  t.student_build =
      absolute(r.student_build.empty() ? r.viewer_tree + "/build-student" : r.student_build);
  const auto cache = read_cache(t.student_build);
  const std::string configure =
      "configure one with `cmake --preset student` in the course's "
      "folder (or run `bash lessons/grade.sh " +
      nn + "` once)";
  if (cache.empty()) {
    f.error = "--watch: no student build in " + t.student_build + ": " + configure;
    return f;
  }
  if (!on(cache.count("REDUCELAB_STUDENT") ? cache.at("REDUCELAB_STUDENT") : "")) {
    f.error =
        "--watch: " + t.student_build +
        " is not a student build (it was configured without -DREDUCELAB_STUDENT=ON): " + configure +
        ", or name one with --student-build DIR";
    return f;
  }
  t.source_root = absolute(cache.count("CMAKE_HOME_DIRECTORY") ? cache.at("CMAKE_HOME_DIRECTORY")
                                                               : r.viewer_tree);
  if (cache.count("CMAKE_COMMAND")) t.cmake = cache.at("CMAKE_COMMAND");

  // The lesson again, in the tree the student build compiles (the viewer's own, as a rule).
  if (t.source_root != absolute(r.viewer_tree)) {
    f.error = find_lesson(t.source_root, nn, t.folder, kernel);
    if (!f.error.empty()) return f;
  }
  const fs::path lessons = fs::path(t.source_root) / "lessons";

  // The file that build compiles for this lesson: the exercise, or a student's own file of that
  // name where the build was configured with -DREDUCELAB_SUBMISSION=DIR.
  const std::string source = kernel_source(t.student_build, t.folder).second;
  const fs::path watched = source.empty() ? lessons / t.folder / "exercise" / kernel
                           : fs::path(source).is_absolute() ? fs::path(source)
                                                            : fs::path(t.source_root) / source;
  t.watched = absolute(watched.string());
  t.shown_name = source.empty() ? "lessons/" + t.folder + "/exercise/" + kernel : source;
  std::error_code ec;
  if (!fs::is_regular_file(t.watched, ec)) {
    f.error = "--watch: no exercise file " + t.watched;
    return f;
  }

  // The solution build: not a student build (its lesson would be the exercise, not the solution).
  t.solution_build = absolute(r.solution_build.empty() ? r.viewer_build : r.solution_build);
  if (!fs::is_directory(t.solution_build, ec)) {
    f.error = "--solution-build: no such folder " + t.solution_build;
    return f;
  }
  if (const auto sol = kernel_source(t.solution_build, t.folder);
      !sol.first.empty() && sol.first != "solution") {
    f.error = "--solution-build: " + t.solution_build + " builds lesson " + nn + " from " +
              sol.second + " (" + sol.first + "), not from the solution: name the normal build";
    return f;
  }
  return f;
}

ChangeDetector::ChangeDetector(std::string path, double interval_s)
    : path_(std::move(path)), interval_s_(interval_s), seen_(stamp()) {}

ChangeDetector::Stamp ChangeDetector::stamp() const {
  std::error_code ec;
  Stamp s;
  const auto t = fs::last_write_time(path_, ec);
  if (ec) return s;  // gone, for now: not a save
  s.exists = true;
  s.mtime = t.time_since_epoch().count();
  s.size = fs::file_size(path_, ec);
  return s;
}

bool ChangeDetector::poll(double now_s) {
  if (looked_ && now_s - last_look_ < interval_s_) return false;  // looked at it just now
  looked_ = true;
  last_look_ = now_s;
  const Stamp s = stamp();
  if (!s.exists) return false;  // mid-rename: wait for it to come back
  if (!(s == seen_)) {
    seen_ = s;
    settling_ = true;  // changed: a save once it stays so for one look
    return false;
  }
  if (!settling_) return false;
  settling_ = false;
  return true;
}

}  // namespace rl::viewer

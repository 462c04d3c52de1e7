// Watch mode's pure parts (viewer/watch_model.h, viewer/watch_files.h): the commands a round runs,
// the one-line status it makes of a compiler's log and of the grader's output (canned here, as the
// tools print them), the round's state machine, the refusals of a bad --watch, and the change
// detector on a real file. The whole round, run for real, is tests/viewer/watch_once_check.sh.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "viewer/child_process.h"
#include "viewer/watch_files.h"
#include "viewer/watch_model.h"
#include "viewer/watcher.h"

using namespace rl::viewer;
namespace fs = std::filesystem;

namespace {

WatchTarget target() {
  WatchTarget t;
  t.folder = "03_sequential_addressing";
  t.watched = "/course/lessons/03_sequential_addressing/exercise/sequential_addressing.cuh";
  t.shown_name = "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh";
  t.source_root = "/course";
  t.student_build = "/course/build-student";
  t.solution_build = "/course/build";
  return t;
}

// g++ under Ninja (lessons/grade.sh's student build), the exercise with a typo: "In file included
// from" first, the error in a UTF-8 locale's quotes, with colour where CMake asks for it.
const char* const kCompilerErrorLog =
    "[1/2] Building CXX object "
    "lessons/03_sequential_addressing/CMakeFiles/lesson03_sim.dir/lesson03_plan_sim.cpp.o\n"
    "FAILED: lessons/03_sequential_addressing/CMakeFiles/lesson03_sim.dir/lesson03_plan_sim.cpp.o "
    "\nccache /usr/bin/c++ -DRL_KERNEL_SOURCE=\\\"lessons/03_sequential_addressing/exercise/"
    "sequential_addressing.cuh\\\" -O3 -DNDEBUG -Wall -Werror -std=c++20 -c "
    "/course/build-student/lessons/03_sequential_addressing/lesson03_plan_sim.cpp\n"
    "In file included from lessons/03_sequential_addressing/lesson03_sim_kernel/lessons/"
    "03_sequential_addressing/sequential_addressing.cuh:3,\n"
    "                 from /course/lessons/03_sequential_addressing/plan.cu:5,\n"
    "                 from lessons/03_sequential_addressing/lesson03_plan_sim.cpp:2:\n"
    "/course/lessons/03_sequential_addressing/exercise/sequential_addressing.cuh: In function "
    "\xe2\x80\x98void rl::backend_sim::sequential_addressing(In<Trace>, Out<Trace>, "
    "uint64_t)\xe2\x80\x99:\n"
    "\x1b[01m\x1b[K/course/lessons/03_sequential_addressing/exercise/"
    "sequential_addressing.cuh:34:3:\x1b[m\x1b[K \x1b[01;31m\x1b[Kerror: \x1b[m\x1b[K"
    "\xe2\x80\x98partal\xe2\x80\x99 was not declared in this scope; did you mean "
    "\xe2\x80\x98partial\xe2\x80\x99?\n"
    "   34 |   partal[tid] += 1.0f;\n"
    "      |   ^~~~~~\n"
    "      |   partial\n"
    "/course/lessons/03_sequential_addressing/exercise/sequential_addressing.cuh:36:1: error: "
    "expected '}' at end of input\n"
    "ninja: build stopped: subcommand failed.\n";

// The grader on the untouched exercise (lesson 03's tree loop missing), as it prints it.
const char* const kFailedGrade =
    "grading lesson 03 sequential_addressing "
    "(lessons/03_sequential_addressing/exercise/sequential_addressing.cuh), 20 s without progress "
    "counts as a hang\n"
    "backend: sim (CPU SIMT simulator): times are simulated, not GPU speeds\n"
    "result: FAILED\n"
    "bug class: lost input (the total is off by more than rounding allows: input was skipped or "
    "added twice)\n"
    "first failure: n=31 block=256 seed=1 uniform: expected -0.980381548, got 0.368189573 (|error| "
    "1.35 > tolerance 8.19e-06)\n"
    "hint: build-student/bin/03_sequential_addressing --hint 1   (the one for this class of bug; "
    "all of them, from a nudge to nearly the answer: "
    "/course/lessons/03_sequential_addressing/exercise/HINTS.md)\n";

// The solution, graded.
const char* const kPassedGrade =
    "grading lesson 03 sequential_addressing "
    "(lessons/03_sequential_addressing/sequential_addressing.cuh), 20 s without progress counts as "
    "a hang\n"
    "backend: sim (CPU SIMT simulator): times are simulated, not GPU speeds\n"
    "all 190 cases right\n"
    "result: PASSED\n";

StepOutput ok(std::string output = "", std::string written = "") {
  StepOutput o;
  o.output = std::move(output);
  o.written = std::move(written);
  return o;
}

StepOutput failed(std::string output, int code = 1) {
  StepOutput o;
  o.exit_code = code;
  o.output = std::move(output);
  return o;
}

// A folder of its own under the temporary folder, emptied first; the process id in its name, since
// CTest runs each test case as a process of its own, several at once with -j.
fs::path scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() /
                     ("reducelab-watch-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

}  // namespace

TEST_CASE(
    "watch: a round's commands build one target, grade and trace the graded kernel at n = 1000") {
  const WatchTarget t = target();
  CHECK(build_command(t).argv == std::vector<std::string>{"cmake", "--build",
                                                          "/course/build-student", "--target",
                                                          "03_sequential_addressing"});
  CHECK(grade_command(t).argv ==
        std::vector<std::string>{"/course/build-student/bin/03_sequential_addressing", "--grade",
                                 "--backend", "sim"});
  const Command yours = trace_command(t, false, "/tmp/w/yours.json");
  const Command sol = trace_command(t, true, "/tmp/w/solution.json");
  CHECK(yours.argv == std::vector<std::string>{"/course/build-student/bin/03_sequential_addressing",
                                               "--backend", "sim", "--n", "1000", "--check-only",
                                               "--variant", "graded", "--trace",
                                               "/tmp/w/yours.json"});
  CHECK(sol.argv[0] == "/course/build/bin/03_sequential_addressing");
  // The same input for both: only the executable and the file differ.
  CHECK(std::vector<std::string>(yours.argv.begin() + 1, yours.argv.end() - 1) ==
        std::vector<std::string>(sol.argv.begin() + 1, sol.argv.end() - 1));
  CHECK(yours.writes == "/tmp/w/yours.json");
  CHECK(build_command(t).timeout_s > grade_command(t).timeout_s);
}

TEST_CASE("watch: the first compiler error, as file:line: message") {
  CHECK(first_build_error(kCompilerErrorLog, "/course") ==
        "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh:34: 'partal' was not "
        "declared in this scope; did you mean 'partial'?");
  // nvcc's form, and a file outside the tree (a submission's) keeps its whole path.
  CHECK(first_build_error("/home/s/sequential_addressing.cuh(12): error: identifier \"x\" is "
                          "undefined\n",
                          "/course") ==
        "/home/s/sequential_addressing.cuh:12: identifier \"x\" is undefined");
  CHECK(first_build_error("x.cuh:3:1: fatal error: y.h: No such file or directory\n", "/c") ==
        "x.cuh:3: y.h: No such file or directory");
  // No line of a compiler: the linker's line, not ninja's FAILED command line (which has -Werror).
  CHECK(first_build_error("FAILED: bin/03 -Werror\n/usr/bin/ld: plan.o: undefined reference to "
                          "`f'\ncollect2: error: ld returned 1 exit status\n",
                          "/c") == "collect2: error: ld returned 1 exit status");
  CHECK(first_build_error("something else went wrong\n\n", "/c") == "something else went wrong");
}

TEST_CASE("watch: the grader's verdict, read as lessons/grade.sh reads it") {
  const GradeVerdict f = parse_grade(kFailedGrade);
  CHECK(f.result == "FAILED");
  CHECK(f.bug == "lost input");
  CHECK(f.failure ==
        "n=31 block=256 seed=1 uniform: expected -0.980381548, got 0.368189573 (|error| 1.35 > "
        "tolerance 8.19e-06)");
  CHECK(f.hint.rfind("build-student/bin/03_sequential_addressing --hint 1", 0) == 0);
  const GradeVerdict p = parse_grade(kPassedGrade);
  CHECK(p.result == "PASSED");
  CHECK(p.summary == "all 190 cases right");
  CHECK(p.failure.empty());
  CHECK(parse_grade("Segmentation fault\n").result.empty());
}

TEST_CASE("watch: a round goes idle -> building -> grading -> tracing -> shown") {
  WatchMachine m(target(), "/tmp/w");
  CHECK(m.phase() == Phase::idle);
  CHECK(m.status_line() ==
        "watching lessons/03_sequential_addressing/exercise/sequential_addressing.cuh: save it to "
        "build, grade and trace it");
  auto c = m.changed();
  REQUIRE(c);
  CHECK(c->argv[1] == "--build");
  CHECK(m.phase() == Phase::building);
  c = m.finished(ok("[1/1] Linking CXX executable bin/03_sequential_addressing\n"));
  REQUIRE(c);
  CHECK(c->argv[1] == "--grade");
  CHECK(m.phase() == Phase::grading);
  c = m.finished(failed(kFailedGrade));  // the grader exits 1 on a failure: still traced
  REQUIRE(c);
  CHECK(m.phase() == Phase::tracing);
  CHECK(c->writes == "/tmp/w/yours.json");
  c = m.finished(failed("WRONG ...", 1) /* a wrong total exits non-zero */);
  REQUIRE(c);
  CHECK(c->writes == "/tmp/w/solution.json");
  StepOutput sol = ok("", "{\"solution\": 1}");
  CHECK_FALSE(m.finished(sol));
  CHECK(m.phase() == Phase::shown);
  const RoundResult& r = m.result();
  CHECK(r.round == 1);
  CHECK(r.kind == RoundResult::Kind::failed);
  CHECK(r.line ==
        "FAILED [lost input]: n=31 block=256 seed=1 uniform: expected -0.980381548, got "
        "0.368189573 (|error| 1.35 > tolerance 8.19e-06)");
  CHECK(m.status_line() == r.line);
  CHECK(r.hint.find("--hint 1") != std::string::npos);
  CHECK(r.trace.empty());  // the student's run wrote no file
  CHECK(r.solution_trace == "{\"solution\": 1}");
  CHECK(r.trace_note.rfind("no trace of your kernel: WRONG", 0) == 0);

  SECTION("a passing round keeps both traces") {
    REQUIRE(m.changed());
    REQUIRE(m.finished(ok()));
    REQUIRE(m.finished(ok(kPassedGrade)));
    REQUIRE(m.finished(ok("", "{\"yours\": 2}")));
    CHECK_FALSE(m.finished(ok("", "{\"solution\": 2}")));
    CHECK(m.result().round == 2);
    CHECK(m.result().kind == RoundResult::Kind::passed);
    CHECK(m.status_line() == "PASSED: all 190 cases right");
    CHECK(m.result().trace == "{\"yours\": 2}");
    CHECK(m.result().trace_note.empty());
    CHECK(m.result().hint.empty());
  }
  SECTION("after a round with trees, a build error says the trees shown are older") {
    REQUIRE(m.changed());
    REQUIRE(m.finished(ok()));
    REQUIRE(m.finished(ok(kPassedGrade)));
    REQUIRE(m.finished(ok("", "{}")));
    CHECK_FALSE(m.finished(ok("", "{}")));
    REQUIRE(m.changed());
    CHECK_FALSE(m.finished(failed(kCompilerErrorLog)));
    CHECK(m.result().round == 3);
    CHECK(m.result().trace_note == "the trees below are round 2's, the last that compiled");
  }
  SECTION("a build error ends the round: nothing graded or traced") {
    REQUIRE(m.changed());
    CHECK_FALSE(m.finished(failed(kCompilerErrorLog)));
    CHECK(m.phase() == Phase::shown);
    CHECK(m.result().kind == RoundResult::Kind::does_not_compile);
    CHECK(m.status_line() ==
          "DOES NOT COMPILE: "
          "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh:34: 'partal' was "
          "not declared in this scope; did you mean 'partial'?");
    CHECK(m.result().trace.empty());
    // Round 1 left no trace of the student's kernel: no older tree to speak of.
    CHECK(m.result().trace_note.empty());
  }
  SECTION("no solution executable: the student's tree alone, and how to build the solution") {
    REQUIRE(m.changed());
    REQUIRE(m.finished(ok()));
    REQUIRE(m.finished(ok(kPassedGrade)));
    REQUIRE(m.finished(ok("", "{}")));
    StepOutput missing;
    missing.start_error = "cannot run /course/build/bin/03_sequential_addressing: No such file";
    CHECK_FALSE(m.finished(missing));
    CHECK(m.result().trace == "{}");
    CHECK(m.result().trace_note ==
          "no trace of the solution: cannot run /course/build/bin/03_sequential_addressing: No "
          "such file (build it: cmake --build /course/build --target 03_sequential_addressing)");
  }
}

TEST_CASE("watch: saves during a round make one more round, not one each") {
  WatchMachine m(target(), "/tmp/w");
  REQUIRE(m.changed());
  CHECK_FALSE(m.changed());  // building already: no second build at once
  CHECK_FALSE(m.changed());
  CHECK(m.phase() == Phase::building);
  REQUIRE(m.finished(ok()));
  CHECK_FALSE(m.changed());
  REQUIRE(m.finished(ok(kPassedGrade)));
  REQUIRE(m.finished(ok("", "{}")));
  // The round ends, is kept as the result, and the next starts at once with a build.
  auto c = m.finished(ok("", "{}"));
  REQUIRE(c);
  CHECK(c->argv[1] == "--build");
  CHECK(m.result().round == 1);
  CHECK(m.result().kind == RoundResult::Kind::passed);
  CHECK(m.phase() == Phase::building);
  CHECK(m.status_line() == "building 03_sequential_addressing (round 2) ...");
  CHECK_FALSE(m.finished(failed("a.cuh:1:1: error: no\n")));
  CHECK(m.result().round == 2);
  CHECK(m.phase() == Phase::shown);  // and no third round: the saves were all before round 2
  CHECK_FALSE(m.finished(ok()));     // nothing running: a stray report changes nothing
  CHECK(m.result().round == 2);
}

TEST_CASE("watch: a step that cannot start or runs out of time says so") {
  WatchMachine m(target(), "/tmp/w");
  REQUIRE(m.changed());
  StepOutput late;
  late.timed_out = true;
  late.exit_code = 137;
  CHECK_FALSE(m.finished(late));
  CHECK(m.status_line() == "DOES NOT COMPILE: stopped after 600 s");
  REQUIRE(m.changed());
  CHECK_FALSE(m.finished(failed("", 2)));
  CHECK(m.status_line() == "DOES NOT COMPILE: the build exited with status 2 and said nothing");
  REQUIRE(m.changed());
  REQUIRE(m.finished(ok()));
  REQUIRE(m.finished(failed("Segmentation fault (core dumped)\n", 139)));
  CHECK(m.result().round == 2);  // still in round 3: tracing
  CHECK(m.phase() == Phase::tracing);
  REQUIRE(m.finished(ok("", "{}")));
  CHECK_FALSE(m.finished(ok("", "{}")));
  CHECK(m.status_line() == "FAILED: the grader gave no verdict: Segmentation fault (core dumped)");
}

TEST_CASE("watch: --watch-once's report") {
  RoundResult r;
  r.round = 1;
  r.line = "FAILED [race]: n=64: ...";
  r.hint = "bin/03 --hint 2";
  CHECK(round_report(target(), r, "same input") ==
        "watch 03_sequential_addressing: "
        "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh, round 1\n"
        "result: FAILED [race]: n=64: ...\nhint: bin/03 --hint 2\ntraces: same input\n");
}

TEST_CASE("watch: the change detector counts one save once") {
  const fs::path dir = scratch("detector");
  const fs::path file = dir / "kernel.cuh";
  write(file, "// v1\n");
  const auto t0 = fs::last_write_time(file);
  ChangeDetector d(file.string(), 0.5);
  int saves = 0;
  double now = 0;
  auto run_for = [&](double seconds) {  // the main loop, 60 frames a second
    for (const double end = now + seconds; now < end; now += 1.0 / 60) saves += d.poll(now) ? 1 : 0;
  };
  run_for(3);
  CHECK(saves == 0);  // nothing saved: the file as it was when the watch began is no save

  SECTION("a touch is one save") {
    fs::last_write_time(file, t0 + std::chrono::seconds(1));
    run_for(0.2);
    CHECK(saves == 0);  // not before it has stayed the same for one look
    run_for(3);
    CHECK(saves == 1);
  }
  SECTION("an editor's save in several writes, within a look, is one save") {
    write(file, "");  // truncate
    run_for(0.3);
    write(file, "// v2, longer\n");
    fs::last_write_time(file, t0 + std::chrono::seconds(2));
    run_for(0.3);
    fs::last_write_time(file, t0 + std::chrono::seconds(3));  // and its metadata once more
    run_for(3);
    CHECK(saves == 1);
  }
  SECTION("a save by rename: gone for a moment, then back; one save") {
    fs::rename(file, dir / "kernel.cuh~");
    run_for(1);
    write(dir / "kernel.tmp", "// v3\n");
    fs::rename(dir / "kernel.tmp", file);
    fs::last_write_time(file, t0 + std::chrono::seconds(4));
    run_for(3);
    CHECK(saves == 1);
  }
  SECTION("two saves seconds apart are two") {
    fs::last_write_time(file, t0 + std::chrono::seconds(1));
    run_for(2);
    fs::last_write_time(file, t0 + std::chrono::seconds(2));
    run_for(2);
    CHECK(saves == 2);
  }
  SECTION("the file is looked at twice a second, not every frame") {
    // A change just after a look is seen at the next look, half a second later, and counted
    // at the one after: between 0.5 and 1.0 s after the save.
    fs::last_write_time(file, t0 + std::chrono::seconds(1));
    double first = -1;
    for (const double start = now; now < start + 2 && first < 0; now += 1.0 / 60)
      if (d.poll(now)) first = now - start;
    CHECK(first >= 0.45);
    CHECK(first <= 1.05);
  }
  fs::remove_all(dir);
}

TEST_CASE("watch: --watch refuses, in one line, what it cannot watch") {
  const fs::path tree = scratch("tree");
  write(tree / "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh", "// x\n");
  write(tree / "lessons/03_sequential_addressing/exercise/HINTS.md", "hints\n");
  // the answers to the exercise's questions are data beside the kernel, never the file to watch
  write(tree / "lessons/03_sequential_addressing/exercise/answers_03.txt", "grids_b64 =\n");
  write(tree / "lessons/03_sequential_addressing/exercise/answers_99.txt", "x =\n");
  write(tree / "lessons/00_measuring/README.md", "no exercise\n");
  write(tree / "lessons/00_measuring/exercise/answers_00.txt", "floor_us_2p24 =\n");
  write(tree / "lessons/14_versus_cub/exercise/versus_cub.cuh", "// cub\n");
  write(tree / "lessons/14_versus_cub/exercise/HINTS.md", "hints\n");
  const fs::path student = tree / "build-student", solution = tree / "build";
  write(student / "CMakeCache.txt", "REDUCELAB_STUDENT:BOOL=ON\nCMAKE_HOME_DIRECTORY:INTERNAL=" +
                                        tree.string() + "\nCMAKE_COMMAND:INTERNAL=/opt/cmake\n");
  write(solution / "kernel-sources.txt",
        "03_sequential_addressing\tsolution\tlessons/03_sequential_addressing/"
        "sequential_addressing.cuh\n");
  WatchRequest r;
  r.lesson = "03";
  r.viewer_tree = tree.string();
  r.viewer_build = solution.string();
  r.traced = [](int lesson) { return lesson != 14; };

  SECTION("a lesson with its exercise, in the default student build") {
    const FoundTarget f = find_watch_target(r);
    REQUIRE(f.error.empty());
    CHECK(f.target.folder == "03_sequential_addressing");
    CHECK(f.target.watched ==
          (tree / "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh").string());
    CHECK(f.target.shown_name ==
          "lessons/03_sequential_addressing/exercise/sequential_addressing.cuh");
    CHECK(f.target.student_build == student.string());
    CHECK(f.target.solution_build == solution.string());
    CHECK(f.target.cmake == "/opt/cmake");
    r.lesson = "3";
    CHECK(find_watch_target(r).target.folder == "03_sequential_addressing");
  }
  SECTION("a submission build watches the student's own file") {
    write(tree / "mine/sequential_addressing.cuh", "// mine\n");
    write(student / "kernel-sources.txt", "03_sequential_addressing\tsubmission\t" +
                                              (tree / "mine/sequential_addressing.cuh").string() +
                                              "\n");
    const FoundTarget f = find_watch_target(r);
    REQUIRE(f.error.empty());
    CHECK(f.target.watched == (tree / "mine/sequential_addressing.cuh").string());
  }
  SECTION("no such lesson") {
    r.lesson = "42";
    CHECK(find_watch_target(r).error ==
          "--watch: there is no lesson 42 in " + (tree / "lessons").string());
    r.lesson = "three";
    CHECK(find_watch_target(r).error == "--watch takes a lesson number such as 03 (got 'three')");
  }
  SECTION("no exercise") {
    r.lesson = "00";
    CHECK(find_watch_target(r).error ==
          "--watch: lesson 00 has no exercise file (nothing in lessons/00_measuring/exercise/ to "
          "watch)");
  }
  SECTION("no trace to show") {
    r.lesson = "14";
    CHECK(find_watch_target(r).error.rfind("--watch: lesson 14's executable records no trace of "
                                           "its own kernel",
                                           0) == 0);
  }
  SECTION("no student build") {
    r.student_build = (tree / "nowhere").string();
    CHECK(find_watch_target(r).error ==
          "--watch: no student build in " + (tree / "nowhere").string() +
              ": configure one with `cmake --preset student` in the course's folder (or run `bash "
              "lessons/grade.sh 03` once)");
  }
  SECTION("a build that is not a student build") {
    write(tree / "plain/CMakeCache.txt", "REDUCELAB_STUDENT:BOOL=OFF\n");
    r.student_build = (tree / "plain").string();
    CHECK(find_watch_target(r).error.rfind(
              "--watch: " + (tree / "plain").string() + " is not a student build", 0) == 0);
  }
  SECTION("a solution build that builds the exercise") {
    r.solution_build = student.string();
    write(student / "kernel-sources.txt",
          "03_sequential_addressing\texercise\tlessons/03_sequential_addressing/exercise/"
          "sequential_addressing.cuh\n");
    CHECK(find_watch_target(r).error.rfind(
              "--solution-build: " + student.string() + " builds lesson 03 from lessons/", 0) == 0);
  }
  fs::remove_all(tree);
}

TEST_CASE("watch: a child process's output, exit status and time limit") {
  const StepOutput o = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  CHECK(o.start_error.empty());
  CHECK(o.exit_code == 3);
  CHECK(o.output == "out\nerr\n");
  CHECK_FALSE(o.timed_out);
  CHECK(run_command({"/nonexistent/cmake"}, 10).start_error ==
        "cannot run /nonexistent/cmake: No such file or directory");
  // A command that would run on, with a child of its own: both are stopped at the limit.
  const auto t0 = std::chrono::steady_clock::now();
  const StepOutput late = run_command({"sh", "-c", "sleep 30 & sleep 30"}, 0.3);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(late.timed_out);
  CHECK(took < 5);
  std::atomic<bool> cancel{true};
  CHECK(run_command({"sleep", "30"}, 60, &cancel).start_error == "cancelled");
}

namespace {

// A course in miniature for the watcher: a "cmake" that notes each build in builds.log, and a
// lesson executable (the student's and the solution's) that grades PASSED and writes a trace.
struct FakeCourse {
  fs::path dir = scratch("fake-course");
  WatchTarget target;
  FakeCourse(const std::string& build_script = "echo build >> \"$(dirname \"$0\")/builds.log\"") {
    const auto script = [&](const fs::path& p, const std::string& body) {
      write(p, "#!/bin/sh\n" + body + "\n");
      fs::permissions(p, fs::perms::owner_all);
    };
    script(dir / "cmake", build_script);
    const std::string lesson =
        "if [ \"$1\" = --grade ]; then echo 'all 3 cases right'; echo 'result: PASSED'; exit 0; "
        "fi\n"
        "for last; do :; done\n"  // the trace file is the last argument
        "echo '{\"from\": \"'\"$0\"'\"}' > \"$last\"";
    script(dir / "student/bin/03_fake", lesson);
    script(dir / "solution/bin/03_fake", lesson);
    write(dir / "kernel.cuh", "// v1\n");
    target.folder = "03_fake";
    target.watched = (dir / "kernel.cuh").string();
    target.shown_name = "kernel.cuh";
    target.source_root = dir.string();
    target.student_build = (dir / "student").string();
    target.solution_build = (dir / "solution").string();
    target.cmake = (dir / "cmake").string();
  }
  ~FakeCourse() { fs::remove_all(dir); }
  int builds() const {
    std::ifstream in(dir / "builds.log");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("watch: the watcher runs a whole round on its thread") {
  FakeCourse c;
  Watcher w(c.target);
  const RoundResult r = w.run_once();
  CHECK(c.builds() == 1);
  CHECK(r.round == 1);
  CHECK(r.kind == RoundResult::Kind::passed);
  CHECK(r.line == "PASSED: all 3 cases right");
  CHECK(r.trace.find("student/bin/03_fake") != std::string::npos);
  CHECK(r.solution_trace.find("solution/bin/03_fake") != std::string::npos);
  CHECK(r.trace_note.empty());
  CHECK(w.status().phase == Phase::shown);
}

TEST_CASE("watch: a touch of the watched file is one rebuild, not two") {
  FakeCourse c;
  Watcher w(c.target);
  const auto t0 = std::chrono::steady_clock::now();
  // Nothing saved yet: no round.
  while (seconds_since(t0) < 1.2) {
    CHECK_FALSE(w.poll(seconds_since(t0)));
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  fs::last_write_time(c.target.watched,
                      fs::last_write_time(c.target.watched) + std::chrono::seconds(1));
  int ended = 0;
  // The main loop at 60 frames a second for three seconds: the save is seen within one, the round
  // takes a few hundredths.
  while (seconds_since(t0) < 4.2) {
    if (const auto r = w.poll(seconds_since(t0))) {
      ++ended;
      CHECK(r->kind == RoundResult::Kind::passed);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  CHECK(ended == 1);
  CHECK(c.builds() == 1);
}

TEST_CASE("watch: closing the watcher stops the step in flight") {
  FakeCourse c("sleep 30");  // a build that would take half a minute
  auto w = std::make_unique<Watcher>(c.target);
  w->start_round();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(w->status().phase == Phase::building);
  CHECK(w->status().line == "building 03_fake (round 1) ...");
  const auto t0 = std::chrono::steady_clock::now();
  w.reset();
  CHECK(seconds_since(t0) < 2);
}

// clang-format off
// reducelab_viewer: the ladder's throughput and the reduction trees, in one window.
//   reducelab_viewer [--results FILE]... [--trace FILE]... [--profile FILE]...
//                    [--view throughput|bars|scaling|tables|tree|run] [--device NAME]
//                    [--point LESSON[/VARIANT][@N]] [--step K] [--screenshot FILE.png]
//                    [--size WxH] [--source-root DIR] [--max-fps HZ]
//                    [--measure-fps SECONDS [--measure-run N]]
//   reducelab_viewer --watch NN [--student-build DIR] [--solution-build DIR] [--watch-once]
// clang-format on
// Bad arguments (an empty value, a size out of range, a screenshot folder that does not exist) are
// refused before a window opens, in one line starting "error:".
// Exit status: 0; 1 when a file named (or found in assets/) failed to load, or the screenshot could
// not be written (the window still shows, and a screenshot is still written, with the error);
// 2 for bad arguments or no display. --watch-once: 0 when the watched lesson passes, 1 when it fails or
// does not compile.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "common/host/cli.h"
#include "common/host/course.h"
#include "viewer/app.h"
#include "viewer/compact_font.h"
#include "viewer/screenshot.h"
#include "viewer/watch_view.h"
#include "viewer/watcher.h"

namespace {

std::string glfw_error;  // the last GLFW error, for the one-line message

void on_glfw_error(int, const char* description) {
  glfw_error = description ? description : "unknown GLFW error";
}

void on_drop(GLFWwindow* window, int count, const char** paths) {
  auto* app = static_cast<rl::viewer::App*>(glfwGetWindowUserPointer(window));
  std::vector<std::string> files;
  for (int i = 0; i < count; ++i) files.emplace_back(paths[i]);
  app->drop(files);
}

std::string one_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

// "1280x800" into width and height: one line naming what is wrong otherwise (empty, not WxH, too
// small, too large).
std::string parse_window_size(const std::string& text, int& width, int& height) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"((\d+)x(\d+))")))
    return "--size must be WxH, e.g. 1280x800 (got '" + text + "')";
  // More than five digits is too large whatever they are; stoi of the rest cannot overflow.
  if (m[1].length() > 5 || m[2].length() > 5 || std::stoi(m[1]) > 8192 || std::stoi(m[2]) > 8192)
    return "--size " + text + " is too large (at most 8192x8192)";
  width = std::stoi(m[1]);
  height = std::stoi(m[2]);
  if (width < 200 || height < 150) return "--size " + text + " is too small (at least 200x150)";
  return "";
}

// A whole number of at most `max` for `option`, or the one-line reason it is not.
std::string parse_bounded(const std::string& text, const char* option, long max, long& value) {
  if (!std::regex_match(text, std::regex(R"(\d+)")))
    return std::string(option) + " must be a whole number (got '" + text + "')";
  if (text.size() > 9 || std::stol(text) > max)
    return std::string(option) + " " + text + " is too large (at most " + std::to_string(max) + ")";
  value = std::stol(text);
  return "";
}

// Where --screenshot will write, checked before a window opens: its folder must exist and be a
// folder.
std::string check_screenshot_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return "--screenshot: cannot write '" + path + "': it is a folder";
  const fs::path folder =
      fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    return "--screenshot: cannot write '" + path + "': the folder '" + folder.string() +
           "' does not exist";
  return "";
}

// --point LESSON[/VARIANT][@N] into the options: N a whole number or 2^K.
std::string parse_point(rl::viewer::AppOptions& opt) {
  std::smatch m;
  if (!std::regex_match(opt.point, m,
                        std::regex(R"((\d{1,4})(?:/([A-Za-z0-9_]+))?(?:@(\d{1,15}|2\^\d{1,2}))?)")))
    return "--point must be LESSON[/VARIANT][@N], e.g. 02, 11/atomic_finish or 03@2^24 (got '" +
           opt.point + "')";
  opt.point_lesson = std::stoi(m[1]);
  opt.point_variant = m[2];
  const std::string n = m[3];
  if (n.rfind("2^", 0) == 0)
    opt.point_n = std::ldexp(1.0, std::stoi(n.substr(2)));
  else if (!n.empty())
    opt.point_n = std::stod(n);
  if (!n.empty() && opt.point_n < 1) return "--point: n must be at least 1 (got '" + n + "')";
  return "";
}

// --watch's target, or the one line that says why there is none; checks that the watch options go
// with --watch and not with the one-frame modes.
std::string check_watch(const rl::viewer::WatchRequest& r, bool watch, bool once,
                        const std::string& screenshot, double measure_fps,
                        rl::viewer::WatchTarget& target) {
  if (!watch) {
    if (once || !r.student_build.empty() || !r.solution_build.empty())
      return "--watch-once, --student-build and --solution-build go with --watch NN";
    return "";
  }
  if (!screenshot.empty() || measure_fps > 0)
    return "--watch does not go with --screenshot or --measure-fps (--watch-once runs one round "
           "without a window)";
  rl::viewer::FoundTarget f = rl::viewer::find_watch_target(r);
  target = f.target;
  return f.error;
}

// A watch round that ended: its traces beside the solution's in the tree view, in place of the last
// round's (the step stays where the student left it).
void show_round(rl::viewer::App& app, const rl::viewer::RoundResult& r,
                const rl::viewer::WatchTarget& t, rl::viewer::App::PairSlot& slot) {
  if (r.trace.empty())
    return;  // it did not compile or trace: the last tree stays, the line says why
  app.open_pair(r.trace, "yours: " + t.folder + " (round " + std::to_string(r.round) + ")",
                r.solution_trace, "the solution, same input", &slot);
}

}  // namespace

int main(int argc, char** argv) {
  rl::viewer::AppOptions opt;
  std::string screenshot, size = "1280x800", step_text, fps_text, run_text, max_fps_text = "60";
  double measure_fps = 0;
  long max_fps = 60;
  std::uint64_t measure_run = 0;  // --measure-run N: the second half's runs, at n = N
  rl::viewer::WatchRequest watch;
  bool watch_once = false;
  CLI::App cli{"ReduceLab viewer: throughput of the ladder and the recorded reduction trees",
               "reducelab_viewer"};
  cli.add_option("--results", opt.results, "a results JSON (reducelab.results); repeatable")
      ->type_name("FILE");
  cli.add_option("--trace", opt.traces,
                 "a trace JSON (reducelab.trace); repeatable, two are shown side by side")
      ->type_name("FILE");
  cli.add_option("--profile", opt.profiles,
                 "hardware counters (reducelab.profile, written by reducelab profile); repeatable. "
                 "Default, when no results or traces are named: assets/profiles/h100-profile.json")
      ->type_name("FILE");
  cli.add_option("--point", opt.point,
                 "select this throughput point, as a click would, to show its counters: a lesson, "
                 "a variant, a size (e.g. 02, 11/atomic_finish@1048576, 03@2^24); default size: "
                 "the one nearest the profiled n, else the largest")
      ->type_name("LESSON[/VARIANT][@N]");
  cli.add_option("--step", step_text,
                 "the step of the traces to show, from 1 (the k-th thing each thread does between "
                 "two barriers, launch "
                 "by launch); default: the first step in which a thread adds")
      ->type_name("UINT");
  cli.add_option(
         "--view", opt.view,
         "throughput, bars, scaling (lesson 22, several GPUs), tables (lessons 18-21), tree, or "
         "run (the Run panel: a kernel of the course on the simulator)")
      ->check(CLI::IsMember({"throughput", "bars", "scaling", "tables", "tree", "run"}));
  cli.add_option(
      "--device", opt.device,
      "plot this run first (a part of its label: the device, e.g. H100, the date or the file)");
  cli.add_option("--screenshot", screenshot, "render offscreen, write this PNG and exit")
      ->type_name("FILE");
  cli.add_option("--size", size, "window size WxH, from 200x150 to 8192x8192 (default 1280x800)")
      ->type_name("WxH");
  cli.add_option("--source-root", opt.source_root,
                 "where the traces' kernel sources are (default: the repository)")
      ->type_name("DIR");
  cli.add_option("--max-fps", max_fps_text,
                 "draw at most this many frames a second (1 to 1000; 0: as many as it can) where "
                 "the display's vsync does not pace them, as under Xvfb (default 60)")
      ->type_name("HZ");
  cli.add_option("--measure-fps", fps_text,
                 "play the tree animation this many seconds (0.1 to 600) with vsync off, paced by "
                 "--max-fps only, and print the fps")
      ->type_name("SECONDS");
  cli.add_option("--measure-run", run_text,
                 "--measure-fps: in its second half, keep the Run panel busy with lesson 03's "
                 "kernel at n = N (runs back to back), and print both halves' fps and the runs' "
                 "times; then pause the animation and time 10 more runs while the window waits "
                 "for input, as it does when a student has pressed Run")
      ->type_name("N");
  cli.add_option("--watch", watch.lesson,
                 "watch lesson NN's exercise: each time it is saved, build it in the student "
                 "build, grade it, and trace it beside the solution at n = 1000 on the simulator")
      ->type_name("NN");
  cli.add_option("--student-build", watch.student_build,
                 "--watch: the student build (configured with -DREDUCELAB_STUDENT=ON; default: "
                 "build-student in the course's folder)")
      ->type_name("DIR");
  cli.add_option("--solution-build", watch.solution_build,
                 "--watch: the build whose bin/ has the solutions (default: this viewer's own)")
      ->type_name("DIR");
  cli.add_flag("--watch-once", watch_once,
               "--watch: one round without a window; print the verdict and the traces' "
               "comparison, exit 0 when the lesson passes, else 1");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.exit(e);
    std::cerr << "error: " << one_line(e.what()) << "\n";
    return 2;
  }
  // Every option given must have a value: `--size ''` is a mistake, not a request for the default.
  for (const CLI::Option* o : cli.get_options())
    for (const std::string& value : o->count() ? o->results() : std::vector<std::string>{})
      if (value.empty()) {
        std::cerr << "error: " << o->get_name() << " needs a value (it was given an empty one)\n";
        return 2;
      }
  int width = 0, height = 0;
  std::string bad = parse_window_size(size, width, height);
  if (bad.empty() && !step_text.empty()) {
    long step = 0;
    bad = parse_bounded(step_text, "--step", 1000000000, step);
    if (bad.empty() && step == 0) bad = "--step counts from 1 (got 0)";
    opt.step = static_cast<int>(step);
  }
  if (bad.empty()) bad = parse_bounded(max_fps_text, "--max-fps", 1000, max_fps);
  if (bad.empty() && !fps_text.empty()) {
    char* end = nullptr;
    measure_fps = std::strtod(fps_text.c_str(), &end);
    if (end != fps_text.c_str() + fps_text.size() || !(measure_fps > 0))
      bad = "--measure-fps must be a number of seconds such as 10 (got '" + fps_text + "')";
    else if (measure_fps > 600)
      bad = "--measure-fps " + fps_text + " is too large (at most 600 seconds)";
    else if (measure_fps < 0.1)
      bad = "--measure-fps " + fps_text + " is too small (at least 0.1 seconds)";
  }
  if (bad.empty() && !run_text.empty()) {
    if (fps_text.empty()) {
      bad = "--measure-run goes with --measure-fps (the runs fill its second half)";
    } else {
      try {
        measure_run = rl::parse_count(run_text, "--measure-run");
        if (measure_run == 0) bad = "--measure-run needs at least one element (got 0)";
      } catch (const std::exception& e) {
        bad = e.what();
      }
    }
  }
  if (bad.empty() && !opt.point.empty()) bad = parse_point(opt);
  if (bad.empty() && !screenshot.empty()) bad = check_screenshot_path(screenshot);
  const bool watching = cli.count("--watch") > 0;
  rl::viewer::WatchTarget watch_target;
  if (bad.empty()) {
#ifdef RL_BUILD_DIR
    watch.viewer_build = RL_BUILD_DIR;
#endif
    watch.viewer_tree = rl::viewer::default_source_root();
    // A lesson can be watched where its kernel is traced on the simulator (lesson 16's are CUB's).
    watch.traced = [](int lesson) {
      const rl::Plan* p = rl::find_plan(lesson, rl::Backend::sim);
      return p != nullptr && p->reduce_traced != nullptr;
    };
    bad = check_watch(watch, watching, watch_once, screenshot, measure_fps, watch_target);
  }
  if (!bad.empty()) {
    std::cerr << "error: " << bad << "\n";
    return 2;
  }
  // --watch: its rounds run on a thread of the watcher's; the main loop only looks for saves and
  // shows what a round found. Made before any window, so that its one failure (no folder for the
  // traces) is a line and exit 2 like the others.
  std::unique_ptr<rl::viewer::Watcher> watcher;
  if (watching) {
    try {
      watcher = std::make_unique<rl::viewer::Watcher>(watch_target);
    } catch (const std::exception& e) {
      std::cerr << "error: --watch: " << one_line(e.what()) << "\n";
      return 2;
    }
  }
  if (watch_once) {  // one round, no window
    const rl::viewer::RoundResult r = watcher->run_once();
    std::cout << rl::viewer::round_report(watch_target, r, rl::viewer::describe_traces(r));
    return r.kind == rl::viewer::RoundResult::Kind::passed ? 0 : 1;
  }
  const bool offscreen = !screenshot.empty() || measure_fps > 0;
  if (watching && opt.view.empty()) opt.view = "tree";  // where a round's traces open
  opt.screenshot = !screenshot.empty();
  opt.loop = measure_fps > 0;

  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    std::cerr << "error: no display: " << one_line(glfw_error) << "\n";
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_VISIBLE, offscreen ? GLFW_FALSE : GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, offscreen ? GLFW_FALSE : GLFW_TRUE);
  const std::string title =
      watching ? "ReduceLab viewer: watching " + watch_target.shown_name : "ReduceLab viewer";
  GLFWwindow* window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window) {
    std::cerr << "error: no display: cannot create an OpenGL 3.0 window: " << one_line(glfw_error)
              << "\n";
    glfwTerminate();
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(measure_fps > 0 ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().FrameRounding = 3.f;
  io.Fonts->AddFontDefault();
  rl::viewer::add_compact_font();  // values, indexes and thread numbers in narrow cells
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  int rc = 0;
  {
    rl::viewer::App app(opt);
    glfwSetWindowUserPointer(window, &app);
    glfwSetDropCallback(window, on_drop);
    for (const auto& f : opt.results) app.load(f);
    for (const auto& f : opt.traces) app.load(f);
    for (const auto& f : opt.profiles) app.load(f);
    // Watching, the tree view is the student's: the course's own traces are not loaded beside it.
    if (opt.results.empty() && opt.traces.empty() && !watching)
      app.load_defaults(opt.profiles.empty());
    app.start();
    rl::viewer::App::PairSlot watch_slot;  // the traces the last round opened, replaced by the next
    if (watcher) {
      watcher->start_round();  // the first round at once: the student sees where they stand
      app.set_strip([&] { rl::viewer::draw_watch_status(watcher->status()); });
    }
    if (measure_fps > 0) {
      app.set_view(rl::viewer::View::tree);
      app.playback().set_speed(4);
      app.playback().play();
    }
    // --measure-run: each run's time, as the Run panel measured it (its input and its kernel),
    // while the tree animates, then while the window waits for input (the animation paused).
    std::vector<double> run_seconds, waiting_run_seconds;
    bool waiting_phase = false;
    bool run_started_waiting = false;  // the run in flight began after the animation paused
    constexpr std::size_t kWaitingRuns = 10;
    if (measure_run > 0) {
      app.run_panel().request().n = measure_run;
      app.run_panel().on_finish = [&](const rl::viewer::RunRequest&,
                                      const rl::viewer::RunOutcome& o) {
        if (o.status == rl::viewer::RunOutcome::Status::done)
          (run_started_waiting ? waiting_run_seconds : run_seconds).push_back(o.run_seconds);
      };
    }
    long frames_before_runs = -1;  // frames when the runs began (--measure-run)
    double runs_began_s = 0;
    long measured_frames = 0;  // frames, and seconds, when the animated measurement ended
    double measured_s = 0;
    // --max-fps: the least time from one frame's start to the next (zero: no pacing).
    const auto frame_period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(max_fps > 0 ? 1.0 / static_cast<double>(max_fps) : 0.0));

    // One loop for the three ways the viewer runs, so that a screenshot and a measured frame are
    // exactly the frames a student sees. What ends it: a screenshot once it is written, an fps
    // measurement once its time is up, an interactive session when the window is closed.
    enum class Mode { interactive, shot, measure };
    const Mode mode = !screenshot.empty() ? Mode::shot
                      : measure_fps > 0   ? Mode::measure
                                          : Mode::interactive;
    // ImGui's layout settles over a few frames: the screenshot is the fourth, read back unswapped.
    constexpr long kScreenshotFrame = 3;
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    auto last = t0;
    auto next_frame = t0;  // --max-fps: when the next frame may start
    long frames = 0;       // frames swapped so far
    while (true) {
      // 1. Poll events. Paused: sleep until input (or 0.1 s) instead of spinning.
      if (mode != Mode::shot && !app.playback().playing())
        glfwWaitEventsTimeout(0.1);
      else
        glfwPollEvents();
      // Exit: the window was closed (a screenshot's hidden window is not; it ends once written).
      if (mode != Mode::shot && glfwWindowShouldClose(window)) break;
      const auto now = clock::now();
      // Watching: a save starts a round (looked for twice a second); a round that ended is shown.
      if (watcher) {
        if (const auto r = watcher->poll(std::chrono::duration<double>(now - t0).count()))
          show_round(app, *r, watch_target, watch_slot);
      }
      // The fps measurement's time is up: exit, or with --measure-run pause the animation and
      // time the runs with the window waiting for input; exit once those are done.
      if (mode == Mode::measure && !waiting_phase &&
          std::chrono::duration<double>(now - t0).count() >= measure_fps) {
        measured_frames = frames;
        measured_s = std::chrono::duration<double>(now - t0).count();
        if (measure_run == 0) break;
        waiting_phase = true;
        app.playback().pause();
      }
      if (waiting_phase && waiting_run_seconds.size() >= kWaitingRuns && !app.run_panel().busy())
        break;
      // --measure-run: from the second half of the measurement on, a run always in flight.
      if (measure_run > 0) {
        const double elapsed = std::chrono::duration<double>(now - t0).count();
        if (elapsed >= measure_fps / 2 && frames_before_runs < 0) {
          frames_before_runs = frames;
          runs_began_s = elapsed;
        }
        if (frames_before_runs >= 0 && !app.run_panel().busy()) {
          run_started_waiting = waiting_phase;
          app.run_panel().run(app.run_panel().request());
        }
      }
      // A screenshot shows the frame --step chose, whatever the clock did meanwhile.
      const double dt =
          mode == Mode::shot ? 0.0 : std::chrono::duration<double>(now - last).count();
      last = now;

      // 2. Start the frame. Offscreen, the hidden window's size is the display.
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      if (offscreen) io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
      ImGui::NewFrame();

      // 3. Build the UI.
      app.frame(io.DisplaySize, dt);

      // 4. Render.
      ImGui::Render();
      int fw, fh;
      glfwGetFramebufferSize(window, &fw, &fh);
      glViewport(0, 0, fw, fh);
      glClearColor(0.094f, 0.094f, 0.118f, 1.f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

      // Exit: the screenshot, read back from the frame just rendered, before a swap discards it.
      if (mode == Mode::shot && frames == kScreenshotFrame) {
        const std::string err = rl::viewer::write_framebuffer_png(screenshot, fw, fh);
        if (!err.empty()) {
          std::cerr << "error: screenshot: " << err << "\n";
          rc = 1;
        }
        // Every file named must have loaded: the picture shows the error, and so does the status.
        if (app.failed_loads() > 0) {
          std::cerr << "error: " << app.failed_loads()
                    << (app.failed_loads() == 1 ? " file" : " files") << " did not load\n";
          rc = 1;
        }
        break;
      }

      // 5. Swap, and wait out the rest of the frame's time where vsync did not (--max-fps).
      glfwSwapBuffers(window);
      ++frames;
      if (mode != Mode::shot && frame_period.count() > 0) {
        next_frame = std::max(next_frame + frame_period, now);  // a slow frame starts no debt
        std::this_thread::sleep_until(next_frame);
      }
    }
    if (mode == Mode::measure) {
      const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
      };
      std::printf(
          "fps: %.1f (%ld frames in %.2f s, %zu trace%s, %dx%d, renderer %s, --max-fps %ld)\n",
          static_cast<double>(measured_frames) / measured_s, measured_frames, measured_s,
          app.trace_count(), app.trace_count() == 1 ? "" : "s", width, height,
          reinterpret_cast<const char*>(glGetString(GL_RENDERER)), max_fps);
      if (measure_run > 0 && frames_before_runs >= 0) {
        const long run_frames = measured_frames - frames_before_runs;
        const double run_s = measured_s - runs_began_s;
        std::printf(
            "fps without a run: %.1f (%ld frames in %.2f s); with the Run panel busy: "
            "%.1f (%ld frames in %.2f s); %zu runs of lesson 03's kernel at n = %llu, "
            "median %.3f s each; then, the animation paused and the window waiting for input, "
            "%zu runs, median %.3f s each\n",
            static_cast<double>(frames_before_runs) / runs_began_s, frames_before_runs,
            runs_began_s, static_cast<double>(run_frames) / run_s, run_frames, run_s,
            run_seconds.size(), static_cast<unsigned long long>(measure_run), median(run_seconds),
            waiting_run_seconds.size(), median(waiting_run_seconds));
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}

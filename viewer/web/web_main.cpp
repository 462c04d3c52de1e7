// The viewer in a web page (emscripten): the same App as reducelab_viewer, on emscripten's GLFW and
// WebGL2, with the committed data preloaded under /assets, and the Run panel driving the simulator
// on a fiber that gives the page back every frame. index.html turns the page's query into
// arguments:
//   index.html?view=tree                         the view to open at
//   index.html?run=KEY&n=1000&block=256          runs a kernel once the page is up; KEY is the
//             [&order=lane|reverse|shuffled]     kernel's slug ("sequential_addressing"), with
//             [&racecheck=1][&compare=1]         "/variant" for a variant ("common_bugs/dropped_block")
//   &timer=1    draws on a 60 Hz timer instead of the browser's animation frames (for a headless
//               browser whose clock is virtual: --virtual-time-budget advances timers, not frames)
//   &shot=1     once the run's trees are shown, prints the canvas as a PNG to the console:
//               "reducelab-shot: " lines of base64, then "reducelab-shot-end" (a headless browser's
//               own --screenshot needs a virtual clock, which this page's fibers never let settle)
// What the page reports for a reader (a person, or tests/viewer/web_page_test.py) goes to the
// console and into the page's log: "reducelab: ready after MS ms", and for each run
// "reducelab-run: ..." (status, total, reference, times), "reducelab-line: ..." (the verdict or the
// kernel's report) and, for n up to 4096, "reducelab-input: ..." (the input, from the run's trace).
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "common/host/cli.h"
#include "viewer/app.h"
#include "viewer/compact_font.h"

namespace {

struct Page {
  GLFWwindow* window = nullptr;
  std::unique_ptr<rl::viewer::App> app;
  std::optional<rl::viewer::RunRequest> pending;  // a run the query asked for
  bool timer = false;                             // ?timer=1
  bool shot = false;                              // ?shot=1
  long shot_frame = -1;  // the frame that prints the canvas: some frames after the run's report
  long frames = 0;
  double last = 0;
  int width = 0, height = 0;
};
Page page;

// "--name value" pairs from index.html; unknown names are refused in one line.
std::string parse_arguments(int argc, char** argv, rl::viewer::AppOptions& opt) {
  rl::viewer::RunRequest r;
  bool run = false;
  for (int i = 1; i < argc; ++i) {
    const std::string name = argv[i];
    if (i + 1 >= argc) return name + " needs a value";
    const std::string value = argv[++i];
    if (name == "--view") {
      opt.view = value;
    } else if (name == "--run") {
      r.choice = rl::viewer::find_choice(value);
      if (r.choice < 0) return "run=" + value + ": no such kernel";
      run = true;
    } else if (name == "--n") {
      const auto n = rl::parse_size(value);
      if (!n) return "n=" + value + ": not a size (1000, 2^16, 2^16+3)";
      r.n = *n;
    } else if (name == "--block") {
      r.block = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (name == "--order") {
      if (value == "lane")
        r.order = rl::SimSchedule::lane_order;
      else if (value == "reverse")
        r.order = rl::SimSchedule::reverse_lanes;
      else if (value == "shuffled")
        r.order = rl::SimSchedule::shuffled;
      else
        return "order=" + value + ": lane, reverse or shuffled";
    } else if (name == "--racecheck") {
      r.racecheck = value == "1" || value == "on";
    } else if (name == "--timer") {
      page.timer = value == "1" || value == "on";
    } else if (name == "--compare") {
      r.with_solution = value == "1" || value == "on";
    } else if (name == "--shot") {
      page.shot = value == "1" || value == "on";
    } else {
      return "unknown setting " + name.substr(2);
    }
  }
  if (run) page.pending = r;
  return "";
}

void report(const rl::viewer::RunRequest& r, const rl::viewer::RunOutcome& o) {
  const auto& c = rl::viewer::run_choices()[static_cast<std::size_t>(r.choice)];
  const char* order = r.order == rl::SimSchedule::reverse_lanes ? "reverse"
                      : r.order == rl::SimSchedule::shuffled    ? "shuffled"
                                                                : "lane";
  std::printf(
      "reducelab-run: status=%s kernel=%s n=%llu block=%u order=%s racecheck=%d total=%.9g "
      "reference=%.9g verified=%d run_s=%.3f total_s=%.3f trace=%d\n",
      rl::viewer::to_string(o.status), c.key.c_str(), static_cast<unsigned long long>(r.n), r.block,
      order, r.racecheck ? 1 : 0, o.total, o.reference, o.verified ? 1 : 0, o.run_seconds,
      o.seconds, o.trace.empty() ? 0 : 1);
  std::printf("reducelab-line: %s\n", o.line.c_str());
  if (!o.trace.empty() && r.n <= 4096) {
    const nlohmann::json t = nlohmann::json::parse(o.trace);
    std::ostringstream line;
    line.precision(9);
    line << "reducelab-input:";
    for (const auto& v : t.at("input")) line << ' ' << v.get<double>();
    std::printf("%s\n", line.str().c_str());
  }
  std::fflush(stdout);
  // The trees open over the next frames (a trace a frame): the picture is taken after them.
  if (page.shot) page.shot_frame = page.frames + 30;
}

// The canvas as a PNG, to the console in lines of base64. Called right after the frame is drawn,
// in the same task: WebGL keeps the drawing buffer only until the page gives control back.
void print_canvas() {
  EM_ASM({
    const url = Module['canvas'].toDataURL('image/png');
    const data = url.substring(url.indexOf(',') + 1);
    for (let i = 0; i < data.length; i += 4096)
      console.log('reducelab-shot: ' + data.substr(i, 4096));
    console.log('reducelab-shot-end');
  });
}

void canvas_size(int& w, int& h) {
  double cw = 0, ch = 0;
  emscripten_get_element_css_size("#canvas", &cw, &ch);
  w = cw > 200 ? static_cast<int>(cw) : 1280;
  h = ch > 150 ? static_cast<int>(ch) : 800;
}

void frame() {
  int w = 0, h = 0;
  canvas_size(w, h);
  if (w != page.width || h != page.height) {
    page.width = w;
    page.height = h;
    glfwSetWindowSize(page.window, w, h);
  }
  glfwPollEvents();
  const double now = emscripten_get_now();
  const double dt = page.frames == 0 ? 0.0 : (now - page.last) / 1000.0;
  page.last = now;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  page.app->frame(ImGui::GetIO().DisplaySize, dt);
  ImGui::Render();
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(page.window, &fw, &fh);
  glViewport(0, 0, fw, fh);
  glClearColor(0.094f, 0.094f, 0.118f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (page.shot_frame >= 0 && page.frames >= page.shot_frame) {
    print_canvas();
    page.shot_frame = -1;
  }

  if (++page.frames == 1) {
    std::printf("reducelab: ready after %.0f ms\n", emscripten_get_now());
    std::fflush(stdout);
  } else if (page.frames == 2 && page.pending) {
    page.app->set_view(rl::viewer::View::run);
    page.app->run_panel().request() = *page.pending;
    page.app->run_panel().run(*page.pending);
    if (!page.app->run_panel().busy()) {
      std::printf("reducelab-line: %s\n", page.app->run_panel().status().c_str());
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("reducelab: started after %.0f ms\n", emscripten_get_now());
  rl::viewer::AppOptions opt;
  opt.source_root = ".";
  opt.defer_loads = true;  // the first frame comes first, then a file a frame (not with timer=1)
  // The page's limits: a run estimated over a minute is refused, one going on for two is stopped.
  opt.run_limits.max_seconds = 60;
  opt.run_limits.timeout_s = 120;
  opt.run_limits.max_n = std::uint64_t{1} << 24;
  if (const std::string bad = parse_arguments(argc, argv, opt); !bad.empty()) {
    std::printf("reducelab: error: %s\n", bad.c_str());
    return 2;
  }
  // A headless browser on a virtual clock draws few frames: everything is loaded before the first,
  // and a run goes to its end within one frame.
  if (page.timer) opt.defer_loads = false;
  if (!glfwInit()) {
    std::printf("reducelab: error: GLFW did not start\n");
    return 2;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  canvas_size(page.width, page.height);
  page.window = glfwCreateWindow(page.width, page.height, "ReduceLab", nullptr, nullptr);
  if (!page.window) {
    std::printf("reducelab: error: no WebGL2 context\n");
    return 2;
  }
  glfwMakeContextCurrent(page.window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().FrameRounding = 3.f;
  io.Fonts->AddFontDefault();
  rl::viewer::add_compact_font();
  ImGui_ImplGlfw_InitForOpenGL(page.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  page.app = std::make_unique<rl::viewer::App>(opt);
  page.app->load_defaults(true);
  page.app->start();
  page.app->run_panel().on_finish = report;
  if (page.timer) page.app->run_panel().slice_ms = 0;
  emscripten_set_main_loop(frame, page.timer ? 60 : 0, 1);
  return 0;
}

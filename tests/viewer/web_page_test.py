#!/usr/bin/env python3
"""Opens the web page (build-web/page, viewer/README.md) in headless Chromium, served from the
loopback address only, and checks what it does:

  1. lesson 03's kernel at n=1000, block 256: the total the page reports against the sum of the
     run's own input (which the page writes out), summed here with math.fsum;
  2. lesson 16's missing-barrier kernel with the race detector: the page reports the race;
  3. with --shots DIR, screenshots of the tree view comparing a run with its fix, and of the Run panel.

--bench adds the timings (lesson 03 at n=2^16, block 256, detector off and on) to the report.
Exits 77 (skipped) with the reason where the page was not built or Chromium is missing.
"""
import argparse
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-extensions", "--window-size=1280,800",
]


def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """python3 -m http.server on 127.0.0.1, stopped by its process id."""

    def __init__(self, folder):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
             "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the local server did not start")

    def url(self, query=""):
        return "http://127.0.0.1:%d/index.html%s" % (self.port, query)

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)


def page_lines(chromium, url, want, timeout_s):
    """Runs Chromium on url (real time, no virtual clock) until every prefix in `want` has been
    printed by the page; returns {prefix: first line after it}. The page's console reaches
    Chromium's stderr (--enable-logging=stderr)."""
    profile = tempfile.mkdtemp(prefix="rl-chromium-")
    proc = subprocess.Popen([chromium] + CHROMIUM_FLAGS +
                            ["--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            errors="replace")
    found, seen = {}, []
    pattern = re.compile(r'INFO:CONSOLE[^\]]*\] "(.*)", source:')

    def read():
        for line in proc.stderr:
            m = pattern.search(line)
            if not m:
                continue
            text = m.group(1)
            seen.append(text)
            for w in want:
                if text.startswith(w) and w not in found:
                    found[w] = text[len(w):].strip()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.time() + timeout_s
    while time.time() < deadline and len(found) < len(want) and proc.poll() is None:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    shutil.rmtree(profile, ignore_errors=True)
    missing = [w for w in want if w not in found]
    if missing:
        raise AssertionError("the page did not print %s within %d s; it printed: %s" %
                             (", ".join(missing), timeout_s, " | ".join(seen[-8:]) or "nothing"))
    return found


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def screenshot(chromium, url, path, budget_ms):
    """A screenshot after budget_ms of virtual time: with ?timer=1 the page draws a frame every
    16.7 ms of it, each drawn for real by SwiftShader, so the budget is kept short."""
    profile = tempfile.mkdtemp(prefix="rl-chromium-")
    subprocess.run([chromium] + CHROMIUM_FLAGS +
                   ["--user-data-dir=" + profile, "--virtual-time-budget=%d" % budget_ms,
                    "--screenshot=" + path, url], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=180, check=False)
    shutil.rmtree(profile, ignore_errors=True)
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path + " is not a PNG"
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert (width, height) == (1280, 800), "%s is %dx%d" % (path, width, height)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", required=True, help="the built page folder (build-web/page)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "")
    ap.add_argument("--shots", help="write the screenshots into this folder")
    ap.add_argument("--bench", action="store_true", help="also time lesson 03 at n=2^16")
    a = ap.parse_args()

    skipped = os.path.join(os.path.dirname(os.path.abspath(a.page)), "page-skipped.txt")
    if os.path.exists(skipped):
        skip("the web page was not built: " + open(skipped).read().strip())
    if not os.path.exists(os.path.join(a.page, "index.js")):
        skip("no web page in %s: build it with viewer/web/build-page.sh" % a.page)
    if not a.chromium:
        skip("chromium is not installed (apt-get install chromium)")

    server = Server(a.page)
    try:
        # 1. Lesson 03 at n=1000: the total against this script's own sum of the page's input.
        got = page_lines(a.chromium, server.url("?run=sequential_addressing&n=1000&block=256"),
                         ["reducelab: ready after", "reducelab-run:", "reducelab-input:"], 300)
        run = fields(got["reducelab-run:"])
        assert run["status"] == "done" and run["kernel"] == "sequential_addressing", run
        assert run["n"] == "1000" and run["block"] == "256", run
        values = [float(v) for v in got["reducelab-input:"].split()]
        assert len(values) == 1000, "the page wrote %d input values" % len(values)
        expected = math.fsum(values)
        total = float(run["total"])
        # A float32 tree sum of 1000 values: each partial sum rounds at most ten times.
        bound = 10 * 2.0 ** -24 * math.fsum(abs(v) for v in values) + 1e-6
        assert abs(total - expected) <= bound, "total %r, sum of the input %r (bound %g)" % (
            total, expected, bound)
        ready_ms = float(got["reducelab: ready after"].split()[0])
        print("lesson 03, n=1000, block 256: total %.9g, sum of its input %.9g: ok" %
              (total, expected))
        print("page ready after %.0f ms (performance.now() at its first frame)" % ready_ms)

        # 2. The missing barrier, with the race detector: the race is reported.
        got = page_lines(
            a.chromium,
            server.url("?run=common_bugs/missing_barrier_in_loop&n=1000&block=256&racecheck=1"),
            ["reducelab-run:", "reducelab-line:"], 300)
        run = fields(got["reducelab-run:"])
        line = got["reducelab-line:"]
        assert run["status"] == "failed", run
        assert "racecheck:" in line and "race on shared" in line, line
        print("missing barrier, race detector on: " + line)

        # 3. Screenshots: the tree view after a run compared with the solution, and the Run panel.
        if a.shots:
            os.makedirs(a.shots, exist_ok=True)
            tree = os.path.join(a.shots, "web-run-compare.png")
            screenshot(a.chromium,
                       server.url("?run=common_bugs/missing_barrier_in_loop&n=600&block=64"
                                  "&compare=1&timer=1"), tree, 3000)
            print("screenshot: " + tree)
            panel = os.path.join(a.shots, "web-run-panel.png")
            screenshot(a.chromium, server.url("?view=run&timer=1"), panel, 2000)
            print("screenshot: " + panel)

        if a.bench:
            for rc in ("0", "1"):
                got = page_lines(a.chromium,
                                 server.url("?run=sequential_addressing&n=65536&block=256"
                                            "&racecheck=" + rc),
                                 ["reducelab-run:"], 300)
                run = fields(got["reducelab-run:"])
                assert run["status"] == "done", run
                print("bench: lesson 03, n=2^16, block 256, race detector %s: run %s s (with its "
                      "trace: %s s)" % ("on" if rc == "1" else "off", run["run_s"], run["total_s"]))
    finally:
        server.stop()
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(a.page) for f in fs)
    print("page folder: %.1f MB" % (size / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())

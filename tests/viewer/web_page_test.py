#!/usr/bin/env python3
"""Opens the web page (build-web/page, viewer/README.md) in headless Chromium, served from the
loopback address only, and checks what it does:

  1. lesson 03's kernel at n=1000, block 256: the total the page reports against the sum of the
     run's own input (which the page writes out), summed here with math.fsum; then lesson 03 in
     reverse lane order and lesson 08's shuffles in a shuffled order, which take the simulator's
     other paths from one CUDA thread to the next;
  2. lesson 17's missing-barrier kernel with the race detector: the page reports the race;
  3. the tree view after the missing barrier's run, compared with its fix: the page prints its own
     canvas as a PNG (?shot=1), which this script saves (--shots DIR, default the working folder)
     and checks: the window's width, and not a blank canvas.

--bench adds the timings (lesson 03 at n=2^16, block 256, detector off and on) to the report.
Exits 77 (skipped) with the reason where the page was not built or Chromium is missing.
"""
import argparse
import base64
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


def page_shot(chromium, url, path, timeout_s):
    """Runs Chromium on url (real time) until the page has printed its canvas (?shot=1: lines of
    base64 after "reducelab-shot: ", then "reducelab-shot-end"); writes the PNG to path and returns
    its width, height and size in bytes."""
    profile = tempfile.mkdtemp(prefix="rl-chromium-")
    proc = subprocess.Popen([chromium] + CHROMIUM_FLAGS +
                            ["--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            errors="replace")
    pattern = re.compile(r'INFO:CONSOLE[^\]]*\] "(.*)", source:')
    chunks, done = [], threading.Event()

    def read():
        for line in proc.stderr:
            m = pattern.search(line)
            if not m:
                continue
            text = m.group(1)
            if text.startswith("reducelab-shot: "):
                chunks.append(text[len("reducelab-shot: "):])
            elif text == "reducelab-shot-end":
                done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(timeout_s)
    os.kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    shutil.rmtree(profile, ignore_errors=True)
    if not done.is_set():
        raise AssertionError("the page did not print its canvas within %d s" % timeout_s)
    data = base64.b64decode("".join(chunks))
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "the page's canvas is not a PNG"
    with open(path, "wb") as f:
        f.write(data)
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"), len(data)


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def check_total(chromium, server, kernel, n, block, order):
    """Runs `kernel` in the page and checks its total against math.fsum of the page's input;
    returns when the page was ready (ms)."""
    got = page_lines(chromium, server.url("?run=%s&n=%d&block=%d&order=%s" % (kernel, n, block,
                                                                              order)),
                     ["reducelab: ready after", "reducelab-run:", "reducelab-input:"], 300)
    run = fields(got["reducelab-run:"])
    assert run["status"] == "done" and run["kernel"] == kernel, run
    assert run["n"] == str(n) and run["block"] == str(block) and run["order"] == order, run
    values = [float(v) for v in got["reducelab-input:"].split()]
    assert len(values) == n, "the page wrote %d input values" % len(values)
    expected = math.fsum(values)
    total = float(run["total"])
    # A float32 tree sum of n values: each partial sum rounds at most log2(n) + 1 times.
    bound = (math.log2(n) + 1) * 2.0 ** -24 * math.fsum(abs(v) for v in values) + 1e-6
    assert abs(total - expected) <= bound, "%s, %s order: total %r, sum of the input %r (bound %g)" % (
        kernel, order, total, expected, bound)
    print("%s, n=%d, block %d, %s order: total %.9g, sum of its input %.9g: ok" %
          (kernel, n, block, order, total, expected))
    return float(got["reducelab: ready after"].split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", required=True, help="the built page folder (build-web/page)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "")
    ap.add_argument("--shots", default=".", help="write the screenshots into this folder")
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
        # 1. Lesson 03 at n=1000: the total against this script's own sum of the page's input;
        # then other thread orders and lesson 08's warp collectives.
        ready_ms = check_total(a.chromium, server, "sequential_addressing", 1000, 256, "lane")
        print("page ready after %.0f ms (performance.now() at its first frame)" % ready_ms)
        check_total(a.chromium, server, "sequential_addressing", 1000, 256, "reverse")
        check_total(a.chromium, server, "warp_shuffle", 1000, 128, "shuffled")

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

        # 3. The tree view after a run, compared with the solution's: the page's own picture.
        os.makedirs(a.shots, exist_ok=True)
        tree = os.path.join(a.shots, "web-run-compare.png")
        width, height, size = page_shot(
            a.chromium, server.url("?run=common_bugs/missing_barrier_in_loop&n=600&block=64"
                                   "&compare=1&shot=1"), tree, 300)
        # The canvas fills the page: the window's 1280 wide, its height less the browser's own.
        assert width == 1280 and 500 <= height <= 800, "the page's picture is %dx%d" % (width,
                                                                                          height)
        # An empty dark canvas compresses to a few kB; two trees side by side do not.
        assert size > 20000, "the page's picture is %d bytes: nothing drawn?" % size
        print("screenshot: %s (%dx%d, %d bytes)" % (tree, width, height, size))

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

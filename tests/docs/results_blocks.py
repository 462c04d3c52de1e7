"""README text that comes from a committed results file is generated, never typed. Each span
    <!-- results: FILE [options] -->...<!-- end results -->
of a Markdown file holds what FILE (a path from the repository root) gives. A span whose opening
comment ends its line is a block; otherwise it is inline, within a sentence or a table cell.

A text file (.md, .txt): the file, or the part the options pick: line=REGEX (the first line
matching it), after=TEXT (what follows TEXT on it), cell=K (its K-th table cell, from 1), bullets
(each line as a list item). Inline, the text goes in backticks; but match=REGEX (the first group
of REGEX's first match, in the line picked or the whole file) is a value, inline as is.

A results JSON (FILE may list several, comma-separated, all of one device): table=KIND renders a
table under a generated line naming the device (labelled a second device unless it is the course's
H100), the date the file records and the file (a profile's or timeline's also names the tool that
recorded it); value=KIND renders one number, inline, as is. The
numbers are formatted as the programs print them (common/host/table.cpp). The kinds, each in its
module under tests/docs/tables/ (its docstring has the details):
    table=ladder n=2^20[,2^28] [lessons=07,08] [columns="time,x CUB"]   the runner's ladder table
    table=lesson lessons=08 n=2^20,2^24,2^28 [versus=07]             a lesson's own rows per size
    table=times n=2^20,2^24 kernels=10,10/host_finish,12 [labels="a|b|c"]    medians side by side
    table=across n=2^10,2^20 kernels=12,13/cluster4 figure=time|pct|xcub|ratio [over=12]
                 [labels="a|b"] [baselines=no]    one figure per kernel (rows) and size (columns)
    table=ops [n=2^28] [ops=...] [types=...]                          lesson 18, operators x types
    table=rows|columns [op=sum] [type=float32] [shapes=4096x4096,...]     lessons 19 and 20
    table=axes [op=sum] [type=float32]                                lesson 21
    table=scaling [gpus=1,2,4,8]                                      lesson 22
    table=latency [lessons=07,11] [variants=-,1x4B]      lesson 11's bytes in flight, a file a size
    table=launches                     lesson 15's launch costs, four ways (`15_launch_cost --json`)
    table=sweep n=2^24,2^28 [figures=time,pct,chain,error,bound] [inputs=2,8]   lesson 07 at K
                                       inputs a thread (`reducelab sweep`), then at its own grid
    value=time|gbps|pct|xcub|min|max|calls|tolerance n=2^28 lesson=12[/variant]   one run's figure
    value=result|bits|reference|error n=2^24 lesson=03     what a run added up: its float32, its bits,
                                                          the double reference, their distance
    value=ratio n=2^28 lesson=06 over=01          lesson 01's median / lesson 06's ("x lesson 01")
    value=time|gbps|pct|calls n=2^20 lesson=ceiling|cub   the streaming read's or CUB's, same run
    table=profile [lessons=02,12] [n=2^20] [block=256] [launch=0] [columns="kernel,time,stall"]
                                       ncu's counters a kernel launch (`reducelab profile --from`)
    value=profile lesson=02 n=2^20 launch=0 counter=shared_ld_wavefronts_per_request   one counter
    table=timeline [lessons=10,16] [n=2^10,2^20] [columns="first,activities,gaps"]
                                       CUPTI's timeline of a call (`reducelab timeline --from`)
    value=timeline lesson=16 n=2^20 field=gaps_us index=0                       one of its figures
    value=launches field=empty|pass|device|replay way=stream|stream+PDL|graph|graph+PDL   lesson 15
e.g. <!-- results: assets/results/h100-bench.json table=ladder n=2^24 lessons=07,08 -->
(min and max are the fastest and slowest timed sample, calls the calls a sample queued back to
back). A span that cannot be rendered (no such file, another schema, files of two devices, a
selection no run matches) fails the check, and --write, naming the Markdown file and line.

    python3 tests/docs/results_blocks.py REPO_ROOT           # check: exits 1 naming stale spans
    python3 tests/docs/results_blocks.py REPO_ROOT --write   # regenerate them"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import tables  # noqa: E402

SPAN = re.compile(r"<!-- results: (\S+)((?: [a-z]+(?:=(?:\"[^\"]*\"|\S+))?)*) -->(.*?)<!-- end results -->", re.S)
OPTION = re.compile(r" ([a-z]+)(?:=(?:\"([^\"]*)\"|(\S+)))?")


def cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def options(text):
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in OPTION.finditer(text)}


def from_text(root, path, opts, block):
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read().rstrip("\n")
    except OSError as e:
        raise tables.SpanError(str(e))
    if "line" in opts:
        hits = [l for l in text.split("\n") if re.search(opts["line"], l)]
        if not hits:
            raise tables.SpanError(f"{path}: no line matches {opts['line']!r}")
        text = hits[0]
    if "match" in opts:
        m = re.search(opts["match"], text)
        if not m or not m.groups():
            raise tables.SpanError(f"{path}: nothing matches {opts['match']!r} (with a group)")
        if block:
            raise tables.SpanError("match= gives a value: an inline span")
        return m.group(1)
    if "after" in opts:
        text = text.split(opts["after"], 1)[1]
    if "cell" in opts:
        text = cells(text)[int(opts["cell"]) - 1]
    if "bullets" in opts:
        text = "\n".join("- " + l for l in text.split("\n") if l.strip())
    return "\n" + text + "\n" if block else " `" + text.strip() + "` "


def generated(root, md, files, opts, block):
    paths = files.split(",")
    if not all(p.endswith(".json") for p in paths):
        if len(paths) > 1:
            raise tables.SpanError("only JSON spans may name several files")
        return from_text(root, files, opts, block)
    text = tables.render(root, md, paths, opts)
    return "\n" + text + "\n" if block else text


def markdown_files(root):
    for md in sorted(glob.glob(os.path.join(root, "**", "*.md"), recursive=True)):
        rel = os.path.relpath(md, root)
        if not re.match(r"(build[^/]*|\.carry|\.git)/", rel):
            yield rel


def main(argv):
    root = argv[1]
    write = "--write" in argv[2:]
    stale, broken = [], []
    for md in markdown_files(root):
        path = os.path.join(root, md)
        with open(path, encoding="utf-8") as f:
            old = f.read()

        def fill(m):
            block = m.group(3).startswith("\n")
            try:
                body = generated(root, md, m.group(1), options(m.group(2)), block)
            except tables.SpanError as e:
                line = old[:m.start()].count("\n") + 1
                broken.append(f"{md}:{line}: <!-- results: {m.group(1)}{m.group(2)} -->: {e}")
                return m.group(0)
            return f"<!-- results: {m.group(1)}{m.group(2)} -->{body}<!-- end results -->"

        new = SPAN.sub(fill, old)
        if new != old:
            stale.append(md)
            if write:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    if broken:
        print("results spans that cannot be generated:\n  " + "\n  ".join(broken))
    if stale and not write:
        print("stale results spans (run: python3 tests/docs/results_blocks.py . --write):\n  " +
              "\n  ".join(stale))
        return 1
    if broken:
        return 1
    print(("regenerated: " + ", ".join(stale)) if stale else "every results span matches its file")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

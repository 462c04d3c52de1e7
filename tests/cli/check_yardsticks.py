"""Lesson 00 on the simulator shows the committed GPU's yardsticks as that file has them: for each
size given, runs `00_measuring --backend sim --n 2^K`, reads its table and its floor line, and checks
them against the file's baselines worked out here (the ceiling's and CUB's medians, GB/s, % of
ceiling and x CUB, and the floor: 4N bytes at the ceiling's GB/s and at the memory's). Exits 1 on
any disagreement.
    python3 tests/cli/check_yardsticks.py EXE RESULTS_JSON K [K ...]"""
import json
import re
import subprocess
import sys

exe, path, sizes = sys.argv[1], sys.argv[2], [int(k) for k in sys.argv[3:]]
doc = json.load(open(path, encoding="utf-8"))
bad = []


def near(printed, value):
    """Whether `printed` is `value` as printed: within half a unit of its last printed digit."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - value) <= 0.5 * 10 ** -decimals + 1e-9 * abs(value)


for k in sizes:
    n = 1 << k
    base = next((b for b in doc["baselines"] if b["n"] == n), None)
    if base is None:
        bad.append(f"2^{k}: the file has no baseline at this size")
        continue
    out = subprocess.run([exe, "--backend", "sim", "--n", f"2^{k}"], capture_output=True, text=True,
)
    text = out.stdout
    if out.returncode != 0:
        bad.append(f"2^{k}: exit {out.returncode}: {out.stderr.strip()}")
        continue
    if doc["device"]["name"] not in text or doc["created_utc"][:10] not in text:
        bad.append(f"2^{k}: the output does not name {doc['device']['name']} and {doc['created_utc'][:10]}")
    ceil_ms, ceil_gbps = base["stream_read"]["median_ms"], base["stream_read_gbps"]
    cub_ms = base["cub"]["median_ms"]
    rows = {}
    for line in text.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in ("streaming read (the ceiling)", "cub::DeviceReduce::Sum"):
            rows[cells[0]] = cells
    ceiling, cub = rows.get("streaming read (the ceiling)"), rows.get("cub::DeviceReduce::Sum")
    if not ceiling or not cub:
        bad.append(f"2^{k}: no ceiling or CUB row in:\n{text}")
        continue

    def in_unit(cell, ms):
        """The printed number of a time cell ("4.69 us"), and `ms` in that cell's unit."""
        value, unit = cell.split()
        return value, ms / {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]

    cub_gbps = 4.0 * n / (cub_ms * 1e6)
    checks = [("ceiling time", *in_unit(ceiling[1], ceil_ms)), ("ceiling GB/s", ceiling[2], ceil_gbps),
              ("ceiling x CUB", ceiling[4], cub_ms / ceil_ms), ("CUB time", *in_unit(cub[1], cub_ms)),
              ("CUB GB/s", cub[2], cub_gbps), ("CUB % of ceiling", cub[3], 100.0 * cub_gbps / ceil_gbps)]
    floor = re.search(r"that is ([0-9.e+]+) us; at the memory's ([0-9]+) GB/s .* it would be ([0-9.e+]+) us: "
                      r"the ceiling reaches ([0-9.]+)% of it", text)
    if not floor:
        bad.append(f"2^{k}: no floor line in:\n{text}")
        continue
    peak = doc["device"]["theoretical_gbps"]
    checks += [("floor at the ceiling", floor.group(1), 4.0 * n / ceil_gbps / 1e3),
               ("memory's GB/s", floor.group(2), peak), ("floor at the memory", floor.group(3), 4.0 * n / peak / 1e3),
               ("ceiling's share of the memory", floor.group(4), 100.0 * ceil_gbps / peak)]
    for what, printed, value in checks:
        if not near(printed, value):
            bad.append(f"2^{k}: {what} printed {printed}, the file gives {value:.6g}")
for b in bad:
    print(b)
print(f"{len(bad)} disagreement(s)" if bad else f"lesson 00's figures at {len(sizes)} sizes are the file's")
sys.exit(1 if bad else 0)

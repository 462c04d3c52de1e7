"""table=profile and value=profile: what Nsight Compute counted of each kernel launch (schema
reducelab.profile, `reducelab profile --json`, common/PROFILE.md), each cell as `reducelab profile
--from` prints it (print_profile_table, common/host/profile_record.cpp).
    table=profile [lessons=02,12/atomic_finish] [variants=-,atomic_finish] [n=2^20,2^24]
                  [block=256] [launch=0] [columns="kernel,time,dram"]
        lesson | variant | n | then the columns (each by its key or its header):
        kernel      kernel                        #launch and the kernel's identifier
        grid        grid x block
        time        time                          base clocks, caches flushed: not bench's time
        dram        DRAM %                        of peak
        occupancy   occupancy %                   achieved of theoretical
        limiter     limiter (blocks/SM)           the resource allowing the fewest blocks an SM
        registers   registers                     per thread
        conflicts   conflicts/request ld / st     shared-memory bank conflicts per instruction
        wavefronts  wavefronts/request ld / st    shared-memory wavefronts per instruction
        threads     threads/inst                  32: no divergence
        stall       top stall (warps/issue)
    Without columns=, the program's own (every key but registers and wavefronts). Records go in
    the file's order; '-' where a value is null.
    value=profile lesson=02[/variant] n=2^20 [block=256] [launch=0] counter=KEY [per=block|warp]
                  [digits=D] [bare]
        one counter of the one record the selection leaves (block= and launch= are needed only
        where more than one is left). KEY is a key of the record's counters (duration_us,
        dram_pct_of_peak, shared_ld_wavefronts_per_request, ...), a sum of loads and stores
        (shared_requests, shared_bank_conflicts, shared_wavefronts, and shared_conflicts_per_request
        and shared_wavefronts_per_request of those), or:
        top_stall          "long_scoreboard 10.2", the largest stall and its warps per issue
        top_stalls         the three, ", " between
        stall:REASON       REASON's warps per issue (it must be one of the three recorded)
        limiter            "warps (8)", as the table's cell
        blocks_per_sm_limit.NAME, grid, block_threads, kernel (the identifier)
        launches           how many kernels the call launched (launch= not needed)
    Numbers have the table's decimals (2 for per-request figures, 1 for percentages, threads per
    instruction and stalls, whole counts as integers, duration_us as a time with its unit);
    digits=D sets the decimals; bare drops a time's unit. per=block divides a count (bytes,
    requests, conflicts, wavefronts, instructions) by the launch's grid, per=warp by its warps
    (grid x block / 32): the kernel-wide totals made comparable with a trace of one block."""
import re

from . import common
from .common import SpanError, duration, fixed

SCHEMAS = ("reducelab.profile",)

# key, header (as print_profile_table names it where it prints the column)
COLUMNS = (("kernel", "kernel"), ("grid", "grid x block"), ("time", "time"), ("dram", "DRAM %"),
           ("occupancy", "occupancy %"), ("limiter", "limiter (blocks/SM)"),
           ("registers", "registers"), ("conflicts", "conflicts/request ld / st"),
           ("wavefronts", "wavefronts/request ld / st"), ("threads", "threads/inst"),
           ("stall", "top stall (warps/issue)"))
PRINTED = ("kernel", "grid", "time", "dram", "occupancy", "limiter", "conflicts", "threads",
           "stall")
COUNTS = ("dram_bytes_read", "shared_ld_requests", "shared_st_requests", "shared_ld_bank_conflicts",
          "shared_st_bank_conflicts", "shared_ld_wavefronts", "shared_st_wavefronts",
          "instructions", "shared_requests", "shared_bank_conflicts", "shared_wavefronts")


def with_sums(c):
    """The counters and their loads-plus-stores sums: shared_requests, shared_bank_conflicts,
    shared_wavefronts (a trace's facts count every shared access, loads and stores together), and
    shared_conflicts_per_request and shared_wavefronts_per_request of those (null where a part
    is)."""
    out = dict(c)
    for total in ("requests", "bank_conflicts", "wavefronts"):
        parts = [c.get(f"shared_{op}_{total}") for op in ("ld", "st")]
        out[f"shared_{total}"] = None if None in parts else parts[0] + parts[1]
    requests = out["shared_requests"]
    for total, name in (("bank_conflicts", "conflicts"), ("wavefronts", "wavefronts")):
        v = out[f"shared_{total}"]
        out[f"shared_{name}_per_request"] = v / requests if v is not None and requests else None
    return out


def cell(v, decimals):
    return fixed(v, decimals) if isinstance(v, (int, float)) else "-"


def limiter(c):
    name = c.get("occupancy_limiter")
    return f"{name} ({c['blocks_per_sm_limit'][name]})" if isinstance(name, str) else "-"


def top_stall(c, decimals=1):
    s = c.get("top_stalls") or []
    return f"{s[0]['reason']} {fixed(s[0]['warps_per_issue'], decimals)}" if s else "-"


def cells(k):
    """Every column's cell of one kernel record."""
    c = k["counters"]
    grid = k.get("grid")
    return {
        "kernel": f"#{k['launch']} {common.kernel_identifier(k['kernel'])}",
        "grid": f"{grid} x {cell(k.get('block_threads'), 0)}" if isinstance(grid, int) else "-",
        "time": duration(c["duration_us"] / 1e3) if c.get("duration_us") is not None else "-",
        "dram": cell(c.get("dram_pct_of_peak"), 1),
        "occupancy": cell(c.get("achieved_occupancy_pct"), 1) + " of " +
        cell(c.get("theoretical_occupancy_pct"), 0),
        "limiter": limiter(c),
        "registers": cell(c.get("registers_per_thread"), 0),
        "conflicts": cell(c.get("shared_ld_conflicts_per_request"), 2) + " / " +
        cell(c.get("shared_st_conflicts_per_request"), 2),
        "wavefronts": cell(c.get("shared_ld_wavefronts_per_request"), 2) + " / " +
        cell(c.get("shared_st_wavefronts_per_request"), 2),
        "threads": cell(c.get("threads_per_instruction"), 1),
        "stall": top_stall(c),
    }


def load(root, files):
    docs = common.load(root, files, SCHEMAS)
    return docs, [k for _, d in docs for k in d.get("kernels", [])]


def ncu_option(options, name, meanings):
    """What ncu's --NAME VALUE among `options` means, in words where `meanings` has them."""
    m = re.search(rf"--{name} (\S+)", options)
    return meanings.get(m.group(1), f"--{name} {m.group(1)}") if m else f"--{name} unrecorded"


def tool_sentence(docs):
    """What counted, and how: ncu's version and what its clock and cache options mean."""
    tools = " and ".join(dict.fromkeys(d.get("tool", "an unrecorded ncu") for _, d in docs))
    notes = []
    for _, d in docs:
        o = d.get("ncu_options", "")
        notes += [ncu_option(o, "clock-control", {"base": "clocks locked to base"}),
                  ncu_option(o, "cache-control", {"all": "caches flushed before every replay "
                                                         "pass"})]
    return f"Counted by {tools}, " + ", ".join(dict.fromkeys(notes)) + "."


def column_keys(opts):
    chosen = common.words(opts, "columns", list(PRINTED))
    by_name = {name: key for key, header in COLUMNS for name in (key, header)}
    for c in chosen:
        if c not in by_name:
            raise SpanError(f"columns: {c!r} is not one of {', '.join(k for k, _ in COLUMNS)}")
    return [by_name[c] for c in chosen]


def render(root, md, files, opts):
    docs, kernels = load(root, files)
    keys = column_keys(opts)
    headers = dict(COLUMNS)
    rows = []
    for k in common.select(kernels, opts, ("block", "launch"), "kernel record"):
        row = cells(k)
        rows.append([common.lesson_text(k["lesson"]), k["variant"] or "-",
                     common.size_label(k["n"])] + [row[key] for key in keys])
    header = ["lesson", "variant", "n"] + [headers[key] for key in keys]
    return common.device_line(docs, md, root) + " " + tool_sentence(docs) + "\n\n" + \
        common.md_table(header, rows)


def decimals_of(key):
    if key.endswith("_per_request"):
        return 2
    if key == "theoretical_occupancy_pct":
        return 0
    return 1


def value(root, files, opts):
    _, kernels = load(root, files)
    key = opts.get("counter")
    if not key:
        raise SpanError("value=profile needs counter= (a key of the record's counters, or "
                        "top_stall, top_stalls, stall:REASON, limiter, launches, ...)")
    digits = opts.get("digits")
    if digits is not None and not digits.isdigit():
        raise SpanError(f"digits={digits}: a whole number of decimals")
    if key == "launches":
        call = common.one([k for k in kernels if k["launch"] == 0], opts, ("block",),
                          "profiled call")
        return str(sum(1 for k in kernels if all(k[f] == call[f] for f in
                                                 ("lesson", "variant", "n", "block"))))
    k = common.one(kernels, opts, ("block", "launch"), "kernel record")
    c = with_sums(k["counters"])
    where = f"lesson {opts['lesson']} at n={opts['n']}, launch {k['launch']}"

    def number(v, default):
        return fixed(v, int(digits) if digits is not None else default)

    def needed(v, name):
        if v is None:
            raise SpanError(f"{where}: ncu gave no value for {name}")
        return v

    per = opts.get("per")
    if per is not None:
        if key not in COUNTS or per not in ("block", "warp"):
            raise SpanError(f"per={per}: per=block or per=warp, of a count ({', '.join(COUNTS)})")
        grid, threads = needed(k.get("grid"), "grid"), needed(k.get("block_threads"), "block")
        units = grid if per == "block" else grid * threads / 32
        return number(needed(c.get(key), key) / units, 1)
    if key == "top_stall":
        needed(c.get("top_stalls") or None, "any stall")
        return top_stall(c, int(digits) if digits is not None else 1)
    if key == "top_stalls":
        return ", ".join(f"{s['reason']} {number(s['warps_per_issue'], 1)}"
                         for s in needed(c.get("top_stalls") or None, "any stall"))
    if key.startswith("stall:"):
        reason = key[len("stall:"):]
        recorded = c.get("top_stalls") or []
        hit = [s for s in recorded if s["reason"] == reason]
        if not hit:
            raise SpanError(f"{where}: {reason} is not among the stalls recorded (the three "
                            f"largest: {', '.join(s['reason'] for s in recorded)})")
        return number(hit[0]["warps_per_issue"], 1)
    if key == "limiter":
        needed(c.get("occupancy_limiter"), "the occupancy limits")
        return limiter(c)
    if key.startswith("blocks_per_sm_limit."):
        limits = c.get("blocks_per_sm_limit", {})
        name = key.split(".", 1)[1]
        if name not in limits:
            raise SpanError(f"{key}: one of " +
                            ", ".join("blocks_per_sm_limit." + n for n in limits))
        return str(needed(limits[name], key))
    if key == "kernel":
        return common.kernel_identifier(k["kernel"])
    if key in ("grid", "block_threads"):
        return str(needed(k.get(key), key))
    if key not in c or key in ("top_stalls", "blocks_per_sm_limit"):
        raise SpanError(f"counter={key}: not a counter of the record (one of {', '.join(c)}, or "
                        "top_stall, stall:REASON, limiter, grid, block_threads, kernel, launches)")
    v = needed(c[key], key)
    if key == "duration_us":
        if digits is None and "bare" not in opts:
            return duration(v / 1e3)
        return number(v, 2) + ("" if "bare" in opts else " us")
    if isinstance(v, str):
        return v
    if isinstance(v, int) and digits is None:
        return str(v)
    return number(v, decimals_of(key))

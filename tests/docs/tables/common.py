"""What every table kind shares: reading the results files a span names (one device only), the
generated line that says where and when they were measured, the selections' syntax, and the number
formats of common/host/table.cpp (fixed, duration), so a README cell reads as the program printed
it."""
import json
import os
import re

# The course's device: tables measured on anything else are labelled as a second device.
COURSE_DEVICE = "H100"


class SpanError(Exception):
    """A span that cannot be rendered: its message names what is wrong, in one line."""


# --- number formats, as common/host/table.cpp prints them --------------------------------------

def fixed(v, decimals):
    return "%.*f" % (decimals, v)


def duration(ms):
    if ms < 1.0:
        return fixed(ms * 1e3, 2) + " us"
    if ms < 1000.0:
        return fixed(ms, 3) + " ms"
    return fixed(ms / 1e3, 3) + " s"


def size_text(n):
    """2^20 and above as a power of two where it is one (as the READMEs write N), else the digits."""
    n = int(n)
    if n >= 1 << 20 and n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    return str(n)


def lesson_text(lesson):
    return "%02d" % lesson if isinstance(lesson, int) else str(lesson)


def size_label(n):
    """Every power of two as 2^k, else the digits: how `reducelab profile|timeline --from` print N
    (size_label, common/host/profile_record.cpp)."""
    n = int(n)
    return "2^%d" % (n.bit_length() - 1) if n and n & (n - 1) == 0 else str(n)


def kernel_identifier(name):
    """A kernel's own identifier, as common/host/kernel_name.cpp gives it: no return type, argument
    list, template arguments or namespaces. "void cub::X<P, const float*>(float*)" -> "X"."""
    if name.startswith("void "):
        name = name[5:]
    if name.endswith(")"):  # drop the argument list: back to the parenthesis that opens it
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(name[i], 0)
            if name[i] == "(" and depth == 0:
                name = name[:i]
                break
    outside, depth = "", 0  # the name with every <...> taken out
    for c in name:
        depth += c == "<"
        if depth == 0:
            outside += c
        if c == ">" and depth > 0:
            depth -= 1
    return outside.rsplit("::", 1)[-1]


# --- selections -------------------------------------------------------------------------------

def parse_size(text):
    m = re.fullmatch(r"(\d+)\^(\d+)([+-]\d+)?|(\d+)", text.strip())
    if not m:
        raise SpanError(f"{text!r} is not a size (1048576, 2^20, 2^20+7)")
    if m.group(4):
        return int(m.group(4))
    return int(m.group(1)) ** int(m.group(2)) + int(m.group(3) or 0)


def sizes(opts, key="n"):
    """The sizes of `key=2^20,2^24`, in the order given."""
    if not opts.get(key):
        raise SpanError(f"the span needs {key}= (a size, or several: {key}=2^20,2^24)")
    return [parse_size(t) for t in opts[key].split(",")]


def words(opts, key, default=None):
    if opts.get(key) is None:
        return default
    return [w.strip() for w in opts[key].split(",") if w.strip()]


def kernel_key(text):
    """`08` or `8` -> (8, ''); `10/host_finish` -> (10, 'host_finish')."""
    lesson, _, variant = text.partition("/")
    if not lesson.isdigit():
        raise SpanError(f"{text!r} is not a lesson (08, or 10/host_finish for a variant)")
    return int(lesson), variant


def lessons(opts, key="lessons"):
    ws = words(opts, key)
    return None if ws is None else {kernel_key(w)[0] for w in ws}


def select(records, opts, keys, what):
    """The records (each with lesson, variant, n, block and, for a kernel, launch) a span picks, in
    the file's order: lessons=02,12/atomic_finish (a lesson, or one variant of it), variants=-,x
    ('-' the lesson's own kernel), n=2^20,2^24, and each of `keys` (block=256, launch=0,1) as a list
    of whole numbers. A key not given selects every value; a selection of nothing is an error."""
    def numbers(key):
        ws = words(opts, key)
        if ws is None:
            return None
        if not all(w.isdigit() for w in ws):
            raise SpanError(f"{key}={opts[key]}: whole numbers, comma-separated")
        return {int(w) for w in ws}

    only = [kernel_key(w) for w in words(opts, "lessons", [])]
    variants = words(opts, "variants")
    ns = set(sizes(opts)) if opts.get("n") else None
    wanted = {k: numbers(k) for k in keys}
    picked = [r for r in records
              if (not only or any(r["lesson"] == l and v in ("", r["variant"]) for l, v in only))
              and (variants is None or ("-" if not r["variant"] else r["variant"]) in variants)
              and (ns is None or r["n"] in ns)
              and all(w is None or r[k] in w for k, w in wanted.items())]
    if not picked:
        asked = " ".join(f"{k}={opts[k]}" for k in ("lessons", "variants", "n") + tuple(keys)
                         if opts.get(k) is not None)
        raise SpanError(f"no {what} matches {asked or 'the span'}")
    return picked


def one(records, opts, keys, what):
    """The single record value=KIND names: lesson=02[/variant] (or variant=), n=, and each of `keys`
    where the rest leaves more than one; an error naming what tells them apart otherwise."""
    if not opts.get("lesson") or not opts.get("n"):
        raise SpanError(f"value={opts['value']} needs lesson= and n=")
    lesson, variant = kernel_key(opts["lesson"])
    variant = opts.get("variant", variant)
    hits = [r for r in records if r["lesson"] == lesson and r["variant"] == variant
            and r["n"] == parse_size(opts["n"])]
    for k in keys:
        if opts.get(k) is not None:
            if not opts[k].isdigit():
                raise SpanError(f"{k}={opts[k]}: one whole number")
            hits = [r for r in hits if r[k] == int(opts[k])]
    if not hits:
        raise SpanError(f"no {what} of lesson {opts['lesson']}{' ' + variant if variant else ''} "
                        f"at n={opts['n']}" + "".join(f" {k}={opts[k]}" for k in keys
                                                       if opts.get(k) is not None))
    if len(hits) > 1:
        apart = [f"{k}= ({', '.join(str(v) for v in dict.fromkeys(r[k] for r in hits))})"
                 for k in keys if len({r[k] for r in hits}) > 1]
        raise SpanError(f"more than one {what} matches ({len(hits)}): say {' and '.join(apart)}")
    return hits[0]


# --- the files -------------------------------------------------------------------------------

def load(root, files, schemas, lesson=None):
    """The documents FILE names (a comma-separated list), each checked for its schema and version.
    A reducelab.beyond record stands for the lesson record it holds (`lesson`, its folder name).
    Refuses files of two devices: one device per table."""
    docs = []
    for path in files:
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise SpanError(f"{path}: {e}")
        if doc.get("schema") == "reducelab.beyond" and lesson:
            if lesson not in doc.get("lessons", {}):
                raise SpanError(f"{path}: holds no record of {lesson}")
            inner = dict(doc["lessons"][lesson])
            inner.setdefault("created_utc", doc.get("created_utc"))
            doc = inner
        if doc.get("schema") not in schemas or doc.get("version") != 1:
            raise SpanError(f"{path}: schema {doc.get('schema')!r} version {doc.get('version')!r}, "
                            f"this table reads {' or '.join(schemas)} version 1")
        if "device" not in doc or "name" not in doc["device"]:
            raise SpanError(f"{path}: no device.name: cannot say where it was measured")
        docs.append((path, doc))
    names = {(d["device"]["name"], bool(d["device"].get("simulated"))) for _, d in docs}
    if len(names) > 1:
        raise SpanError("one device per table, but the files are of " +
                        " and ".join(f"{d['device']['name']} ({p})" for p, d in docs))
    return docs


def date_text(created):
    m = re.fullmatch(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d):\d\dZ", created or "")
    return f"on {m.group(1)} ({m.group(2)} UTC)" if m else None


def dates_text(created):
    """", on D (HH:MM UTC)" for each file, joined with "and"; files of one day share one date, their
    times as a range ("on D (16:50 to 17:15 UTC)")."""
    stamps = [re.fullmatch(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d):\d\dZ", c or "") for c in created]
    if not all(stamps):
        return "; the file records no date" if len(created) == 1 else \
            "; not every file records its date"
    days = {m.group(1) for m in stamps}
    if len(days) == 1:
        times = sorted({m.group(2) for m in stamps})
        span = times[0] if len(times) == 1 else f"{times[0]} to {times[-1]}"
        return f", on {days.pop()} ({span} UTC)"
    return ", " + " and ".join(date_text(c) for c in created)


def device_line(docs, md_path, root):
    """The generated line above a table: the device, whether it is the course's, and when."""
    doc = docs[0][1]
    dev = doc["device"]
    gpus = doc.get("gpus") or []
    what = f"{len(gpus)} x {dev['name']}" if len(gpus) > 1 else f"an {dev['name']}"
    if dev.get("simulated"):
        where = f"Simulated on the CPU ({dev['name']}), not measured on a GPU"
    elif COURSE_DEVICE in dev["name"]:
        where = f"Measured on the course's device, {what}"
    else:
        where = f"Measured on **a second device**, {what} (the course's device is the " \
                f"{COURSE_DEVICE})"
    when = dates_text([d.get("created_utc") for _, d in docs])
    md_dir = os.path.dirname(os.path.join(root, md_path))
    links = ", ".join(f"[{os.path.basename(p)}]({os.path.relpath(os.path.join(root, p), md_dir)})"
                      for p, _ in docs)
    return f"{where}{when}. Data: {links}."


# --- Markdown ----------------------------------------------------------------------------------

def md_table(header, rows, right=()):
    """A Markdown table; columns whose index is in `right` are right-aligned."""
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"
    rule = "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"
    return "\n".join([line(header), rule] + [line(r) for r in rows])

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

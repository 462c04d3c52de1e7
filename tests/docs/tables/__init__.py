"""Markdown generated from committed results JSON: one module per table kind (table=KIND), and
inline values (value=KIND): the ladder's results (bench), and the profile's counters and the
timeline's figures (value=profile, value=timeline). results_blocks.py calls render()."""
from . import (across, axes, bench, ladder, latency, launches, lesson, matrix, ops, profile,
               scaling, sweep, timeline, times)
from .common import SpanError

KINDS = {
    "ladder": ladder.render,
    "lesson": lesson.render,
    "times": times.render,
    "across": across.render,
    "ops": ops.render,
    "rows": matrix.render,
    "columns": matrix.render,
    "axes": axes.render,
    "scaling": scaling.render,
    "latency": latency.render,
    "launches": launches.render,
    "sweep": sweep.render,
    "profile": profile.render,
    "timeline": timeline.render,
}

# value=KIND for a record other than the ladder's results; any other KIND is bench's.
VALUES = {
    "profile": profile.value,
    "timeline": timeline.value,
    "launches": launches.value,
}


def render(root, md, files, opts):
    """The text of a span over JSON files (paths from the repository root), `md` the Markdown file
    it sits in (for its links): a table for table=KIND, one number for value=KIND."""
    if "table" in opts:
        if opts["table"] not in KINDS:
            raise SpanError(f"table={opts['table']}: one of {', '.join(KINDS)}")
        return KINDS[opts["table"]](root, md, files, opts)
    if "value" in opts:
        if opts["value"] in VALUES:
            return VALUES[opts["value"]](root, files, opts)
        return bench.value(bench.load(root, files), opts)
    raise SpanError("a span over JSON needs table=KIND or value=KIND")

"""The results check sees a hand edit: README.md, lesson 01's README and the results folders (with
the README of the H100's full tables, assets/results/README.md) are copied to a scratch folder; the check passes there; then ONE number inside one generated table
(and, separately, one inline value) is changed, and the check must fail naming that file and no
other, and --write must give back the file exactly as it was. A span that cannot be rendered fails
too, naming the file and line.
    python3 tests/docs/test_results_spans.py REPO_ROOT"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else ".")
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results_blocks.py")
LESSON = "lessons/01_interleaved_divergent/README.md"
TABLE_SPAN = re.compile(r"<!-- results: \S+\.json[^>]* table=\S+[^>]*-->\n(.*?)<!-- end results -->", re.S)
VALUE_SPAN = re.compile(r"<!-- results: \S+\.json[^>]* value=\S+[^>]*-->([^<\n]+)<!-- end results -->")


def check(root, *extra):
    return subprocess.run([sys.executable, SCRIPT, root, *extra], capture_output=True, text=True)


def bump_a_digit(text, start, end):
    """`text` with the last digit in [start, end) that belongs to a number changed (9 -> 0, else
    +1): one number of a table or sentence, no other character touched."""
    for i in range(end - 1, start - 1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1:]
    raise AssertionError("no digit in the span")


class HandEdits(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = self.dir.name
        for rel in ("README.md", LESSON):
            os.makedirs(os.path.dirname(os.path.join(self.root, rel)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, rel), os.path.join(self.root, rel))
        for folder in ("assets/results", "assets/profiles"):  # every folder a span may read
            if os.path.isdir(os.path.join(ROOT, folder)):
                shutil.copytree(os.path.join(ROOT, folder), os.path.join(self.root, folder))

    def tearDown(self):
        self.dir.cleanup()

    def read(self, rel):
        with open(os.path.join(self.root, rel), encoding="utf-8") as f:
            return f.read()

    def write(self, rel, text):
        with open(os.path.join(self.root, rel), "w", encoding="utf-8") as f:
            f.write(text)

    def edit_and_expect_failure(self, rel, span, name):
        original = self.read(rel)
        m = span.search(original)
        self.assertIsNotNone(m, f"{rel} has no {name} span")
        # the last number of the first table row below the header and rule, or of the value
        body_start = m.start(1)
        if span is TABLE_SPAN:
            rows = [r for r in re.finditer(r"^\|.*\|$", original[m.start(1):m.end(1)], re.M)]
            self.assertGreater(len(rows), 2, f"{rel}: the table has no rows")
            body_start, end = m.start(1) + rows[2].start(), m.start(1) + rows[2].end()
        else:
            end = m.end(1)
        edited = bump_a_digit(original, body_start, end)
        self.assertNotEqual(edited, original)
        self.write(rel, edited)
        r = check(self.root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        named = [l.strip() for l in r.stdout.split("\n") if l.startswith("  ")]
        self.assertEqual(named, [rel], r.stdout)  # that file, and no other
        r = check(self.root, "--write")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(self.read(rel), original, f"--write did not restore {rel}")
        self.assertEqual(check(self.root).returncode, 0)

    def test_the_copies_pass(self):
        r = check(self.root)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("every results span matches its file", r.stdout)

    def test_a_number_edited_in_the_full_ladder_table(self):
        self.edit_and_expect_failure("assets/results/README.md", TABLE_SPAN, "table")

    def test_a_number_edited_in_the_front_page(self):
        self.edit_and_expect_failure("README.md", VALUE_SPAN, "value")

    def test_a_number_edited_in_a_lesson_table(self):
        self.edit_and_expect_failure(LESSON, TABLE_SPAN, "table")

    def test_a_number_edited_in_a_sentence(self):
        self.edit_and_expect_failure(LESSON, VALUE_SPAN, "value")

    def test_a_span_that_cannot_be_rendered(self):
        text = self.read(LESSON)
        m = TABLE_SPAN.search(text)
        # the kind of this very span, whatever it is, becomes one that does not exist
        opening = text.index("-->", m.start())
        broken = re.sub(r"table=\S+", "table=pie", text[m.start():opening], count=1)
        self.write(LESSON, text[:m.start()] + broken + text[opening:])
        line = text[:m.start()].count("\n") + 1
        for extra in ((), ("--write",)):
            r = check(self.root, *extra)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn(f"{LESSON}:{line}: ", r.stdout)
            self.assertIn("table=pie: one of", r.stdout)


class TextValues(unittest.TestCase):
    """match=REGEX over a committed text file: its first group, inline and as is."""

    def test_match(self):
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import results_blocks  # noqa: E402
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "regs.txt"), "w", encoding="utf-8") as f:
                f.write("void a<1024u>()\t  REG:32 STACK:0\nvoid b<256u>()\t  REG:29 STACK:0\n")
            text = results_blocks.from_text
            self.assertEqual(text(root, "regs.txt", {"match": r"REG:(\d+)"}, False), "32")
            self.assertEqual(text(root, "regs.txt", {"line": "^void b<", "match": r"REG:(\d+)"},
                                  False), "29")
            for opts, block, error in [({"match": r"SHARED:(\d+)"}, False, "nothing matches"),
                                       ({"match": r"REG:\d+"}, False, "with a group"),
                                       ({"match": r"REG:(\d+)"}, True, "an inline span")]:
                with self.assertRaisesRegex(results_blocks.tables.SpanError, error):
                    text(root, "regs.txt", opts, block)


if __name__ == "__main__":
    unittest.main()

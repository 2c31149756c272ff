# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asccheck/tap.py, the one TAP reader, on tricky input, and
its writer."""

import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import tap  # noqa: E402

HARNESS = """\
TAP version 13
1..5
# Starting 5 tests from 1 test cases.
#  RUN           global.one ...
#            OK  global.one
ok 1 global.one
ok 2 global.two # SKIP no device
#  RUN           global.three ...
# three.c:10:three:Expected 1 (1) == 2 (2)
not ok 3 global.three
ok 4 # XFAIL known
not ok 5 global.five # TODO later
# Totals: pass:2 fail:1 xfail:1 xpass:0 skip:1 error:0
"""


class ReaderTest(unittest.TestCase):
    """What counts as a result, a skip, a failure and a plan."""

    def test_harness_output(self):
        r = tap.read(HARNESS)
        self.assertEqual([x.number for x in r.results], [1, 2, 3, 4, 5])
        self.assertEqual((r.passed, r.failed, r.skipped), (3, 1, 1))
        self.assertEqual(r.plan, 5)
        self.assertEqual(r.missing, 0)
        self.assertEqual(r.results[1].reason, "no device")
        self.assertEqual(r.results[2].description, "global.three")

    def test_only_numbered_results_at_the_first_column(self):
        r = tap.read("ok - a summary\n    ok 1 indented\n# ok 2 comment\n"
                     "ok\nnot ok - x\nok 12abc\nokay 3\nok 7 fine\n")
        self.assertEqual([x.number for x in r.results], [7])
        self.assertEqual(r.failed, 0)

    def test_skip_directive_case_and_spacing(self):
        r = tap.read("ok 1 a #SKIP\nok 2 b # skip why\nok 3 c # SKIPPED\n"
                     "ok 4 d - # SKIP: reason\n")
        self.assertEqual(r.skipped, 3)
        self.assertEqual(r.passed, 1)

    def test_missing_results_and_skipped_program(self):
        r = tap.read("1..4\nok 1 a\nnot ok 2 b\n")
        self.assertEqual(r.missing, 2)
        r = tap.read("1..0 # SKIP no /dev/asc_event\n")
        self.assertEqual((r.skipped, r.missing, r.skip_all),
                         (1, 0, "no /dev/asc_event"))
        self.assertEqual(tap.read("ok 1 a\n").missing, 0)

    def test_several_programs_in_one_stream(self):
        r = tap.read("1..0 # SKIP a\n1..2\nok 1 x\n1..0 # SKIP b\n"
                     "1..0 # SKIP c\n1..1\n")
        self.assertEqual((r.skipped, r.skip_all, r.plan), (3, None, 1))

    def test_lines_before_a_failure(self):
        text = "".join("# line %d\n" % i for i in range(30)) + "not ok 1 x\n"
        r = tap.read(text)
        before = r.before(r.results[0].index, 19)
        self.assertEqual(len(before), 19)
        self.assertEqual(before[-1], "# line 29")
        self.assertEqual(tap.read("not ok 1 x\n").before(0, 19), [])

    def test_text_without_newline_and_crlf(self):
        r = tap.read(["ok 1 a\n", "not ok 2 b\r\n", "ok 3 c"])
        self.assertEqual((r.passed, r.failed), (2, 1))
        self.assertEqual(r.lines[1], "not ok 2 b\r")

    def test_tally_sums(self):
        t = tap.Tally()
        t.add(tap.read(HARNESS))
        t.add(tap.read("1..0 # SKIP x\n"))
        self.assertEqual((t.passed, t.failed, t.skipped), (3, 1, 2))
        self.assertEqual(t.line(), "3 passed, 1 failed")


class WriterTest(unittest.TestCase):
    """Numbered results, as the install and kselftest-tree tests print
    them, read back by the reader."""

    def test_numbers_and_counts(self):
        out = io.StringIO()
        w = tap.Writer(out)
        w.ok("first")
        w.not_ok("second")
        w.skip("third", "not root")
        w.comment("a\n\nb")
        w.plan()
        self.assertEqual(out.getvalue(), "ok 1 - first\nnot ok 2 - second\n"
                         "ok 3 - third # SKIP not root\n# a\n#\n# b\n1..3\n")
        self.assertEqual(w.failures, 1)
        r = tap.read(out.getvalue())
        self.assertEqual((r.passed, r.failed, r.skipped, r.missing),
                         (1, 1, 1, 0))

    def test_prefix_without_dash(self):
        out = io.StringIO()
        tap.Writer(out, prefix="kselftest tree: ", dash=False).ok("build")
        self.assertEqual(out.getvalue(), "ok 1 kselftest tree: build\n")


if __name__ == "__main__":
    unittest.main()

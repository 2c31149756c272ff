# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asccheck: the verdicts of the check's steps and jobs, the
closing table of check-all and the KCSAN lane's build line."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import check, lanes, table, verdicts  # noqa: E402


class TmpDir(unittest.TestCase):
    """A test with a temporary directory and files in it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def file(self, name, text):
        path = os.path.join(self.tmp.name, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path


class VerdictsTest(TmpDir):
    """build, tap and plain verdicts: what they print, count and keep."""

    def judge(self, kind, log_text, status, name="step"):
        out = io.StringIO()
        v = verdicts.Verdicts(os.path.join(self.tmp.name, "failures"), out)
        getattr(v, kind)(name, self.file("job.log", log_text), status)
        kept = os.path.join(self.tmp.name, "failures")
        failures = ""
        if os.path.exists(kept):
            with open(kept) as f:
                failures = f.read()
        return v.tally, out.getvalue(), failures

    def test_build_fails_on_a_warning_despite_status_0(self):
        log = "".join("cc %d.o\n" % i for i in range(10))
        log += "a.c:3:1: warning: unused x\n" + "cc more\n" * 10
        tally, out, failures = self.judge("build", log, 0, "module")
        self.assertEqual((tally.passed, tally.failed), (0, 1))
        self.assertIn("    a.c:3:1: warning: unused x\n", out)
        self.assertIn("    cc 8.o\n", out)
        self.assertNotIn("cc 6.o", out)
        self.assertTrue(out.endswith("not ok - module\n"), out)
        self.assertEqual(failures, "not ok - module\n")

    def test_build_passes_clean(self):
        tally, out, _ = self.judge("build", "cc x.o\n", 0, "module")
        self.assertEqual((tally.passed, out), (1, "ok - module\n"))

    def test_grep_context_separates_groups(self):
        lines = ["l%d" % i for i in range(20)]
        lines[3] = lines[15] = "error: x"
        got = verdicts.grep_context(lines, verdicts.SHOWN, 2, 4)
        self.assertEqual(got, ["l1", "l2", "error: x", "l4", "l5", "l6", "l7",
                               "--", "l13", "l14", "error: x", "l16", "l17",
                               "l18", "l19"])

    def test_tap_counts_and_shows_what_led_to_a_failure(self):
        log = "".join("# step %d\n" % i for i in range(25))
        log += "ok 1 a\nok 2 b # SKIP no\nnot ok 3 c\nok 4 d\n"
        tally, out, failures = self.judge("tap", log, 1)
        self.assertEqual((tally.passed, tally.failed, tally.skipped),
                         (2, 1, 1))
        lines = out.splitlines()
        at = lines.index("not ok 3 c")
        self.assertEqual(lines[at - 19:at][-2:], ["    ok 1 a",
                                                  "    ok 2 b # SKIP no"])
        self.assertEqual(lines[at - 19], "    # step 8")
        self.assertEqual(lines[at + 1], "ok 4 d")
        self.assertEqual(failures.splitlines()[-1], "not ok 3 c")
        self.assertEqual(len(failures.splitlines()), 12)
        self.assertNotIn("exit status", out)

    def test_a_run_that_failed_without_a_failure_counts_once(self):
        log = "ok 1 a\n" + "".join("# kernel %d\n" % i for i in range(30))
        tally, out, failures = self.judge("tap", log, 124, "guest")
        self.assertEqual((tally.passed, tally.failed), (1, 1))
        self.assertIn("    # kernel 29\n", out)
        self.assertNotIn("    # kernel 9\n", out)
        self.assertTrue(out.endswith("not ok - guest (exit status 124: timed out)\n"))
        self.assertEqual(failures.splitlines()[0], "# kernel 18")
        self.assertEqual(failures.splitlines()[-1],
                         "not ok - guest (exit status 124: timed out)")

    def test_a_guest_that_timed_out_after_a_failure_says_so(self):
        log = "ok 1 a\nnot ok 2 b\nok 3 c\n# still running\n"
        for status, why in ((124, "timed out"),
                            (125, "the guest died or the runner failed")):
            tally, out, _ = self.judge("tap", log, status, "guest")
            self.assertEqual((tally.passed, tally.failed), (2, 2))
            self.assertTrue(out.endswith("not ok - guest (exit status %d: %s)\n"
                                         % (status, why)), out)
        tally, out, _ = self.judge("tap", log, 1, "guest")
        self.assertEqual((tally.passed, tally.failed), (2, 1))
        self.assertNotIn("exit status", out)

    def test_plain(self):
        tally, out, _ = self.judge("plain", "".join("%d\n" % i
                                                    for i in range(30)), 2)
        self.assertEqual(tally.failed, 1)
        self.assertEqual(out.splitlines()[0], "    10")
        tally, out, _ = self.judge("plain", "fine\n", 0)
        self.assertEqual(out, "ok - step\n")


class TableTest(TmpDir):
    """The row of a kernel from its guest logs."""

    def test_row_and_render(self):
        head = self.file("guest-6.1.log", (
            "ok 1 a\nok 2 b # SKIP x\nnot ok 3 c\n# soak: 1200 ops in 10 s\n"
            "asc-vm: kernel log: 2 findings\n    ok 9 nested\n"))
        tail = self.file("guest-6.1-tail.log", (
            "ok 1 d\n# soak: 34 ops\n# ioctls: 1000000 in 8.2 s\n"
            "# faults injected in all: 40 failslab, 6 fail_page_alloc, "
            "30 fail_usercopy\nasc-vm: kmemleak: 3 suspected leaks\n"))
        missing = os.path.join(self.tmp.name, "guest-ids4-6.1.log")
        r = table.row("6.1", [head, tail, missing])
        self.assertEqual(r, ["6.1", 2, 1, 1234, 1000000, 76, 3, 2])
        lines = table.render([r, table.row("kcsan", [missing])])
        self.assertEqual(lines[0], "#")
        self.assertEqual(lines[1], "# kernel   passed failed   stress-ops  "
                         "fuzz-ioctls   faults  kmemleak log-finds")
        self.assertEqual(lines[2], "# 6.1           2      1         1234"
                         "      1000000       76         3         2")
        self.assertEqual(lines[3].split(), ["#", "kcsan"] + ["0"] * 7)


class RecordingCheck(lanes.Check):
    """A Check whose commands are kept in CALLS, not run."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = []

    def run(self, argv, **kwargs):
        self.calls.append(argv)
        return 0


class HeadPartsTest(unittest.TestCase):
    """What each kernel's long head runs in check-all."""

    def test_by_kernel(self):
        c = lanes.Check("/top", "all", ["6.1", "6.12", "6.12-rt", "debug"])
        self.assertEqual(c.head_parts("6.1"), [])
        self.assertEqual(c.head_parts("6.12"), ["--no-torch", "--quick-examples"])
        self.assertEqual(c.head_parts("6.12-rt"), ["--no-torch", "--quick-examples"])
        self.assertEqual(c.head_parts("debug"), ["--selftests", "--programs", "--ascctl"])

    def test_the_first_kernel_but_debug_runs_everything(self):
        c = lanes.Check("/top", "all", ["debug", "6.12-rt", "6.1"])
        self.assertEqual(c.head_parts("6.12-rt"), [])
        self.assertEqual(c.head_parts("6.1"), ["--no-torch", "--quick-examples"])

    def test_the_long_head_passes_them(self):
        c = RecordingCheck("/top", "all", ["6.1", "6.12"])
        self.assertEqual(c.long_run("6.12", "head"), 0)
        self.assertEqual(c.long_run("6.12", "tail"), 0)
        self.assertEqual(c.calls[0][-4:], [lanes.GUEST, "--long-head", "--no-torch",
                                           "--quick-examples"])
        self.assertEqual(c.calls[1][-2:], [lanes.GUEST, "--long-tail"])

    def test_debug_keeps_only_the_fast_paths_test_off(self):
        c = RecordingCheck("/top", "all", ["6.1", "debug"])
        c.ids4_run("6.1")
        c.ids4_run("debug")
        self.assertEqual([argv[-1] for argv in c.calls], ["--libasc", "--fastpath"])
        quick = RecordingCheck("/top", "quick", ["6.1"])
        quick.ids4_run("6.1")
        self.assertEqual(quick.calls[0][-1], "--fastpath")


class JobOrderTest(unittest.TestCase):
    """check-all's long jobs in the order they start."""

    def started(self, kernels):
        run = check.Run("/top", "all", kernels, 2)
        names = []
        run.job = lambda kind, name, log, what: names.append(name)
        run.long_lanes()
        return names

    def test_the_kselftest_tree_after_the_debug_lanes(self):
        self.assertEqual(self.started(["6.1", "6.12", "6.12-rt", "debug"]), [
            "6.1: guest run, long tests", "6.1: guest run, the long tail",
            "6.12: guest run, long tests", "6.12: guest run, the long tail",
            "debug: guest run, long tests", "debug: guest run, the long tail",
            "kselftest tree",
            "6.12-rt: guest run, long tests", "6.12-rt: guest run, the long tail",
            "6.1: guest run, event_ids=4", "6.12: guest run, event_ids=4",
            "debug: guest run, event_ids=4", "6.12-rt: guest run, event_ids=4"])

    def test_fewer_kernels(self):
        self.assertEqual(self.started(["6.12"]), [
            "6.12: guest run, long tests", "6.12: guest run, the long tail",
            "kselftest tree", "6.12: guest run, event_ids=4"])


class KcsanLaneTest(TmpDir):
    """The KCSAN lane's first TAP line names the kcsan kernel and the time
    of its own build, not the debug kernel's."""

    class FakeCheck(lanes.Check):
        """A Check whose commands are recorded; the kernel build takes 42
        s of a fake clock."""

        def __init__(self, top, clock, build_status=0):
            super().__init__(top, "all", ["6.1", "debug"])
            self.clock = clock
            self.build_status = build_status
            self.ran = []

        def run(self, argv, **kwargs):
            self.ran.append(argv)
            if lanes.KERNEL_BUILDER in argv:
                self.clock[0] += 42
                kwargs["stdout"].write("building\n")
                return self.build_status
            return 0

        def module_ko(self, kernel):
            return "/build/driver/%s/asc_event.ko" % kernel

    def lane(self, build_status=0):
        clock = [1000.0]
        check = self.FakeCheck(self.tmp.name, clock, build_status)
        os.makedirs(check.logs)
        # The debug kernel built beside it took 900 s.
        self.file("build/check/debug-kernel.log", "")
        self.file("build/check/debug-kernel.log.ms", "900000\n")
        self.file("build/check/debug-kernel.log.rc", "0\n")
        real = lanes.time.monotonic
        lanes.time.monotonic = lambda: clock[0]
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                status = check.kcsan_lane()
        finally:
            lanes.time.monotonic = real
        return status, out.getvalue().splitlines(), check

    def test_the_kcsan_build_line(self):
        status, lines, check = self.lane()
        self.assertEqual(status, 0)
        self.assertEqual(lines[0], "ok 1 kcsan: kernel builds (or is built), 42 s")
        self.assertIn(lanes.KCSAN_CONFIG, check.ran[0])
        self.assertEqual(check.ran[1][:5], [lanes.VM, "--kernel", "kcsan",
                                            "--module",
                                            "/build/driver/kcsan/asc_event.ko"])

    def test_a_failed_kcsan_build(self):
        status, lines, check = self.lane(build_status=2)
        self.assertEqual(status, 1)
        self.assertEqual(lines, ["# building",
                                 "not ok 1 kcsan: kernel builds (or is built)"])
        self.assertEqual(len(check.ran), 1)

    def test_the_debug_build_line(self):
        self.assertEqual(lanes.kernel_line(1, "debug", True, 899.6),
                         "ok 1 debug: kernel builds (or is built), 900 s")


if __name__ == "__main__":
    unittest.main()

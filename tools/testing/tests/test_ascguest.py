# SPDX-License-Identifier: GPL-2.0
"""tools/testing/ascguest/, the guest side of the checks, on the host: what
runs for each command line, the TAP it writes and reads, the verdicts of
steps (exit statuses, bounded runs, in-process checkers), the examples'
deletion list and the libasc.rst report, pytest's lines as TAP, the
benchmark's smoke test on a stand-in asc-bench."""

import io
import os
import sys
import tempfile
import time
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from ascguest import bench, examples, install, kcsan, pyasc, pytap, tap  # noqa: E402
from ascguest.ascctl import last_report  # noqa: E402
from ascguest.cli import Usage, main, plan  # noqa: E402
from ascguest.steps import KILLED, Failed, Steps, in_process, run_tap  # noqa: E402


def parts(*args):
    """The parts plan() runs for ARGS."""
    return plan(args).parts


class PlanTest(unittest.TestCase):
    """asc-check-guest's arguments, as tools/testing/asc-check passes them."""

    def test_everything(self):
        self.assertEqual(parts(), ["selftests", "abi32", "programs", "examples", "python",
                                   "ascctl"])

    def test_the_quick_guests(self):
        self.assertEqual(parts("--programs"), ["programs"])
        self.assertEqual(parts("--examples"), ["examples"])
        self.assertEqual(parts("--python"), ["python"])
        self.assertEqual(parts("--ascctl"), ["ascctl"])
        self.assertEqual(parts("--tools"), ["programs", "examples", "python", "ascctl"])
        self.assertEqual(parts("--fastpath"), ["fastpath"])
        self.assertEqual(parts("--libasc"), ["libasc"])

    def test_selftests_named(self):
        p = plan(["asc_event_reports", "asc_event_abi"])
        self.assertEqual(p.parts, ["selftests", "abi32"])
        self.assertEqual(p.selftests, ["asc_event_reports", "asc_event_abi"])
        self.assertEqual(parts("asc_event_ids", "asc_event_pool"), ["selftests"])

    def test_long_halves(self):
        self.assertEqual(parts("--long"),
                         ["selftests", "programs", "examples", "python", "ascctl",
                          "ascctl-long", "tail"])
        self.assertEqual(parts("--long-head"),
                         ["selftests", "programs", "examples", "python", "ascctl",
                          "ascctl-long"])
        self.assertEqual(parts("--long-tail"), ["tail"])
        self.assertTrue(plan(["--long-head"]).long)
        self.assertFalse(plan(["--programs"]).long)

    def test_long_with_a_part(self):
        self.assertEqual(parts("--long", "--ascctl"), ["ascctl", "ascctl-long"])
        self.assertEqual(parts("--long-tail", "--programs"), [])
        self.assertEqual(parts("--long-tail", "--libasc"), ["libasc"])
        self.assertEqual(parts("--long", "--examples"), ["examples"])

    def test_trims_of_a_long_run(self):
        full = plan(["--long-head"])
        self.assertTrue(full.torch and full.all_examples)
        p = plan(["--long-head", "--no-torch", "--quick-examples"])
        self.assertEqual(p.parts, full.parts)
        self.assertFalse(p.torch or p.all_examples)
        self.assertTrue(p.long)
        self.assertEqual((plan(["--long", "--no-torch"]).torch,
                          plan(["--long", "--no-torch"]).all_examples), (False, True))
        self.assertEqual((plan(["--long", "--quick-examples", "--python"]).torch,
                          plan(["--long", "--quick-examples"]).all_examples), (True, False))
        self.assertFalse(plan(["--python"]).torch)
        for args in (["--no-torch"], ["--python", "--no-torch"],
                     ["--long", "--python", "--quick-examples"],
                     ["--long", "asc_event_abi", "--no-torch"]):
            with self.assertRaises(Usage):
                plan(args)

    def test_the_selftests_as_a_part(self):
        self.assertEqual(parts("--long-head", "--selftests", "--programs", "--ascctl"),
                         ["selftests", "programs", "ascctl", "ascctl-long"])
        self.assertEqual(parts("--selftests"), ["selftests"])
        self.assertEqual(plan(["--selftests"]).selftests, [])

    def test_parts_together_in_their_order(self):
        self.assertEqual(parts("--programs", "--examples"), ["programs", "examples"])
        self.assertEqual(parts("--examples", "--programs"), ["examples", "programs"])
        self.assertEqual(parts("--tools", "--programs"),
                         ["programs", "examples", "python", "ascctl"])
        self.assertEqual(parts("--long", "--python", "--ascctl"),
                         ["python", "ascctl", "ascctl-long"])

    def test_nothing_but_parts_after_a_part(self):
        for args in (["--programs", "x"], ["--ascctl", "--long"],
                     ["--python", "asc_event_abi"]):
            with self.assertRaises(Usage):
                plan(args)

    def test_every_part_exists(self):
        from ascguest import parts as p  # pylint: disable=import-outside-toplevel
        for args in ([], ["--long"], ["--libasc"], ["--fastpath"]):
            for name in plan(args).parts:
                self.assertTrue(callable(p.PARTS[name]), name)
        for _, function in p.ASCCTL + p.ASCCTL_LONG:
            self.assertTrue(callable(function))

    def test_usage_exit_status(self):
        err = io.StringIO()
        with mock.patch("sys.stderr", err):
            self.assertEqual(main(["--tools", "asc_event_abi"]), 2)
        self.assertIn("usage: asc-check-guest", err.getvalue())


class TapTest(unittest.TestCase):
    """The writer's lines and the reader's results."""

    def test_numbered_plan_after(self):
        out = io.StringIO()
        t = tap.Tap(out)
        t.result(True, "a")
        t.result(False, "b")
        t.comment("one\ntwo\n")
        t.comment("")
        t.plan()
        self.assertEqual(out.getvalue(), "ok 1 a\nnot ok 2 b\n# one\n# two\n1..2\n")
        self.assertEqual(t.failed, 1)

    def test_fixed_number_and_prefix(self):
        out = io.StringIO()
        t = tap.Tap(out, fixed=1, prefix="- guest R: ")
        t.result(True, "a")
        t.result(True, "b")
        self.assertEqual(out.getvalue(), "ok 1 - guest R: a\nok 1 - guest R: b\n")

    def test_read_through_the_one_reader(self):
        text = ("TAP version 13\nok 1 fine\nnot ok 2 bad\n# ok 3 no\n"
                "ok 3 later # SKIP no device\nok 4 #5 kept\n1..4\n")
        self.assertEqual([r.description for r in bench.passed(text)],
                         ["fine", "later", "#5 kept"])
        self.assertEqual([r.skipped for r in bench.passed(text)], [False, True, False])
        self.assertFalse(kcsan.no_skip(text))
        self.assertTrue(kcsan.no_skip("ok 1 fine\nnot ok 2 bad\n"))


class StepsTest(unittest.TestCase):
    """A test's steps: verdicts, statuses, bounds, in-process checkers."""

    def test_step_passes_and_fails(self):
        s = Steps()
        self.assertEqual(s.step("echo", ["echo", "hi"]), "hi\n")
        with self.assertRaisesRegex(Failed, "^false$"):
            s.step("false", ["false"])
        self.assertEqual(s.text, ["$ echo hi", "hi", "$ false"])

    def test_exits_wants_its_status(self):
        s = Steps()
        self.assertEqual(s.exits(3, ["sh", "-c", "echo out; echo err >&2; exit 3"]),
                         "out\nerr\n")
        with self.assertRaisesRegex(Failed, "exit status 0, expected 1"):
            s.exits(1, ["true"])

    def test_signal_is_128_plus(self):
        # The child's own SIGINT, not sh's: a SIGINT ignored by whatever
        # started the tests (a background job's) stays ignored in sh.
        kill = ("import os, signal; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                "os.kill(os.getpid(), signal.SIGINT)")
        self.assertEqual(Steps().run([sys.executable, "-c", kill])[0], 130)

    def test_bound_kills_with_137(self):
        s = Steps()
        t0 = time.monotonic()
        rc, _ = s.run(["sh", "-c", "sleep 30 & exec sleep 30"], timeout=0.3)
        self.assertLess(time.monotonic() - t0, 10)
        self.assertEqual(rc, KILLED)
        self.assertIn("still running, killed", s.text[-1])

    def test_until(self):
        s = Steps()
        calls = []
        s.until("never", lambda: calls.append(1) or len(calls) == 3, 5, delay=0)
        self.assertEqual(len(calls), 3)
        with self.assertRaisesRegex(Failed, "never"):
            s.until("never", lambda: False, 2, delay=0)

    def test_background_ended_after_the_block(self):
        s = Steps()
        with s.background(["sh", "-c", "echo started; exec sleep 30"]) as p:
            time.sleep(0.2)
        self.assertIsNotNone(p.poll())
        self.assertIn("started", s.text)

    def test_script_in_process(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "check.py")
            with open(path, "w") as f:
                f.write("import os, sys\nprint('argv', sys.argv[1:])\n"
                        "os.system('echo from a child')\nos.chdir('/')\n"
                        "sys.exit(int(sys.argv[1]))\n")
            argv, cwd = list(sys.argv), os.getcwd()
            rc, out = in_process(path, ["0"])
            self.assertEqual((rc, sys.argv, os.getcwd()), (0, argv, cwd))
            self.assertEqual(out, "argv ['0']\nfrom a child\n")
            self.assertEqual(in_process(path, ["3"])[0], 3)
            with self.assertRaisesRegex(Failed, "^the check$"):
                Steps().script("the check", path, "1")

    def test_script_message_and_exception(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.py")
            with open(path, "w") as f:
                f.write("import sys\nif sys.argv[1] == 'usage':\n    sys.exit('usage: bad')\n"
                        "raise ValueError('broken')\n")
            self.assertEqual(in_process(path, ["usage"]), (1, "usage: bad\n"))
            rc, out = in_process(path, ["x"])
            self.assertEqual(rc, 1)
            self.assertIn("ValueError: broken", out)

    def test_run_tap_verdicts(self):
        out = io.StringIO()
        t = tap.Tap(out, fixed=1)

        def failing(s):
            s.say("said")
            s.check("the thing", False)

        self.assertTrue(run_tap(t, "passes", lambda s: None))
        self.assertFalse(run_tap(t, "fails", failing))
        self.assertFalse(run_tap(t, "raises", lambda s: open("/nonexistent/x")))
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[:4], ["ok 1 passes", "# said", "# FAIL: the thing",
                                     "not ok 1 fails"])
        self.assertIn("FileNotFoundError", out.getvalue())
        self.assertEqual(lines[-1], "not ok 1 raises")


class ExamplesTest(unittest.TestCase):
    """asc-check-examples: which runs, which sites deleted."""

    def test_every_third_site_from_the_first(self):
        listing = "".join("%d asc_set_flag(%d)\n" % (10 + i, i) for i in range(7))
        self.assertEqual([s for s, _ in examples.sites(listing, 3)], ["10", "13", "16"])
        self.assertEqual(examples.sites(listing, 1)[1], ("11", "asc_set_flag(1)"))
        self.assertEqual(len(examples.sites(listing, 1)), 7)

    def test_quick_and_all(self):
        quick = examples.Options([])
        self.assertEqual((quick.deleting, quick.every), (["mod-pingpong"], 3))
        self.assertEqual(quick.others("sync-all-reduce"), [["-c1"], ["-c2"]])
        full = examples.Options(["--all"])
        self.assertEqual(full.every, 1)
        self.assertEqual(sorted(full.deleting), sorted(e for e, _ in examples.EXAMPLES))
        self.assertEqual(full.others("sync-all-reduce")[-1], ["-c64"])
        self.assertEqual(full.others("mod-pingpong")[1], ["-n7", "-t3"])

    def test_examples_named(self):
        opts = examples.Options(["--all", "add-rms-norm", "mmad-pingpong"])
        self.assertEqual(opts.examples, [("mmad-pingpong", "hand"), ("add-rms-norm", "alloc")])

    def test_the_detectors_findings(self):
        f = examples.FINDING.pattern % "mod-pingpong"
        for line in ("mod-pingpong: missing wait: x", "mod-pingpong: deadlock: y",
                     "mod-pingpong: error: deadlock across the cores of the launch: z"):
            self.assertRegex(line, f)
        self.assertNotRegex("mod-pingpong: ok: x", f)

    def test_the_texts_report(self):
        with open(os.path.join(examples.TOP, "Documentation", "libasc.rst")) as f:
            text = examples.doc_report(f.read())
        self.assertTrue(text)
        self.assertTrue(all(line.startswith("missing sync: ") for line in text))
        self.assertEqual(examples.report("vadd: x\nmissing sync: at 0x1f and 0x2\n"),
                         ["missing sync: at ADDR and 0x2"])

    def test_runner_status(self):
        out = io.StringIO()
        r = examples.Runner(tap.Tap(out))
        self.assertTrue(r.run(3, "three", ["sh", "-c", "echo x; exit 3"]))
        self.assertFalse(r.run(0, "zero", ["sh", "-c", "echo y; exit 1"]))
        self.assertEqual(out.getvalue(),
                         "ok 1 three\n# y\n# exit status 1, expected 0\nnot ok 2 zero\n")

    def test_a_run_that_hangs_is_one_failure(self):
        out = io.StringIO()
        r = examples.Runner(tap.Tap(out))
        saved, examples.RUN_TIMEOUT = examples.RUN_TIMEOUT, 1
        try:
            self.assertFalse(r.run(3, "hangs", ["sh", "-c", "echo z; exec sleep 30"]))
        finally:
            examples.RUN_TIMEOUT = saved
        self.assertTrue(r.run(3, "after", ["sh", "-c", "exit 3"]))
        self.assertEqual(out.getvalue(), "# z\n# still running after 1 s: killed\n"
                         "not ok 1 hangs\nok 2 after\n")


PYTEST = """\
============================= test session starts ==============================
tests/test_a.py::test_one PASSED                                         [ 25%]
tests/test_a.py::test_two[a b-PASSED] FAILED                             [ 50%]
tests/test_b.py::test_three SKIPPED (no device)                          [ 75%]
tests/test_b.py::test_four XFAIL                                         [100%]
PASSED tests/test_a.py::test_one
"""


class PytestTapTest(unittest.TestCase):
    """asc-check-python's reading of pytest -v."""

    def test_outcomes(self):
        self.assertEqual(pytap.outcomes(PYTEST), [
            ("tests/test_a.py::test_one", "PASSED"),
            ("tests/test_a.py::test_two[a b-PASSED]", "FAILED"),
            ("tests/test_b.py::test_three", "SKIPPED"),
            ("tests/test_b.py::test_four", "XFAIL")])

    def test_report(self):
        out = io.StringIO()
        pytap.report(tap.Tap(out), PYTEST)
        results = [line for line in out.getvalue().splitlines() if not line.startswith("#")]
        self.assertEqual(results, [
            "ok 1 python: tests/test_a.py::test_one",
            "not ok 2 python: tests/test_a.py::test_two[a b-PASSED]",
            "ok 3 python: tests/test_b.py::test_three # SKIP",
            "ok 4 python: tests/test_b.py::test_four", "1..4"])


FAKE_BENCH = """#!/bin/sh
case "$*" in
"--quick")
	for f in a b c d e f g; do echo "ok 1 $f"; done
	echo '# | handoff RTT | 1 | met |'
	echo '# | uncontended set+wait | 1 | met |'
	echo '# | alloc+release | 1 | not met |'
	echo '# | flag op with 1,000 open TPipes | 1 | met |'
	echo '# | kernel memory per open, unmapped | 1 | met |'
	echo '# | core runtime issued round trip | 1 | not met |'
	echo '# | Python issued operation | 1 | not met |'
	;;
"--quick -f ids,many")
	echo 'ok 1 alloc_event_id'; echo 'ok 2 set+wait with many TPipes'
	for i in 3 4 5 6 7; do echo "ok $i x # SKIP not picked"; done ;;
*) echo "asc-bench: bad figure list"; exit ${BAD:-2} ;;
esac
"""


class BenchSmokeTest(unittest.TestCase):
    """The benchmark's smoke test on a stand-in asc-bench."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.bench = os.path.join(self.tmp.name, "asc-bench")
        with open(self.bench, "w") as f:
            f.write(FAKE_BENCH)
        os.chmod(self.bench, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def test_passes(self):
        with mock.patch.object(bench, "BENCH", self.bench):
            bench.smoke(Steps())

    def test_bad_name_must_exit_2(self):
        with mock.patch.object(bench, "BENCH", self.bench), \
             mock.patch.dict(os.environ, {"BAD": "1"}):
            with self.assertRaisesRegex(Failed, "exit status 1, expected 2"):
                bench.smoke(Steps())

    def test_missing_row(self):
        with open(self.bench, "w") as f:
            f.write(FAKE_BENCH.replace("alloc+release", "alloc"))
        with mock.patch.object(bench, "BENCH", self.bench):
            with self.assertRaisesRegex(Failed, r"goal row: alloc\\\+release"):
                bench.smoke(Steps())


class SmallTest(unittest.TestCase):
    """The install test's names, the KCSAN lane's skips, a deadlock report."""

    def test_readme_commands_name(self):
        self.assertEqual(install.commands_name("make\nsudo make install\n"),
                         "make; sudo make install")
        self.assertEqual(install.commands_name("a; b\nc"), "a;  b; c")

    def test_no_skip(self):
        self.assertTrue(kcsan.no_skip("ok 1 a\nnot ok 2 b # SKIP x\n# ok 3 # SKIP\n"))
        self.assertFalse(kcsan.no_skip("ok 1 a\nok 2 b #  SKIP no uffd\n"))

    def test_last_report(self):
        log = ("x\nasc_event: deadlock in TPipe 1\na\n"
               "asc_event: deadlock in TPipe 2\nb\nc\nd\ne\nf\n")
        self.assertEqual(last_report(log), "asc_event: deadlock in TPipe 2\nb\nc\nd\ne")
        self.assertEqual(last_report("nothing\n"), "")


if __name__ == "__main__":
    unittest.main()


class PyascTest(unittest.TestCase):
    """asc-check-pyasc's list, the checkout's files, and the verdicts."""

    def test_list_entries(self):
        text = ("# comment\n\npython/a.py\trun\n"
                "python/test/b.py\tno\tNPU only: torch on \"npu\"\n")
        self.assertEqual(pyasc.listed(text), [("python/a.py", "run", ""),
                                              ("python/test/b.py", "no", 'NPU only: torch on "npu"')])

    def test_kernel_files_leave_out_conftest_and_other_dirs(self):
        with tempfile.TemporaryDirectory() as d:
            for f in ("python/tutorials/01_add/add.py", "python/test/kernels/conftest.py",
                      "python/test/kernels/test_vadd.py", "python/test/unit/test_x.py",
                      "python/test/kernels/README.md"):
                os.makedirs(os.path.join(d, os.path.dirname(f)), exist_ok=True)
                open(os.path.join(d, f), "w").close()
            self.assertEqual(pyasc.kernel_files(d), ["python/test/kernels/test_vadd.py",
                                                     "python/tutorials/01_add/add.py"])

    def test_how_a_file_runs(self):
        self.assertEqual(pyasc.command("x/test_vadd.py")[1:4], ["-m", "pytest", "-q"])
        self.assertEqual(pyasc.command("x/add.py")[1:], ["add.py"])

    def test_first_error(self):
        self.assertEqual(pyasc.first_error("a\nE   ModuleNotFoundError: asc.adv\nE   x\n"),
                         "ModuleNotFoundError: asc.adv")
        self.assertEqual(pyasc.first_error("Traceback\nKeyError: 1\nValueError: bad\n"),
                         "ValueError: bad")
        self.assertEqual(pyasc.first_error("nothing\n"), "")

    def test_unlisted_and_missing_files_fail(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "python/tutorials"))
            open(os.path.join(d, "python/tutorials/new.py"), "w").close()
            out = io.StringIO()
            t = tap.Tap(out)
            pyasc.check(t, d, False, [("python/tutorials/gone.py", "no", "why")])
            text = out.getvalue()
            self.assertIn("not ok 1 - pyasc: python/tutorials/new.py is not in pyasc-kernels.txt",
                          text)
            self.assertIn("not ok 2 - pyasc: python/tutorials/gone.py is not in the checkout", text)
            self.assertIn("ok 3 - pyasc: python/tutorials/gone.py # SKIP why", text)
            self.assertEqual(t.failed, 2)

# SPDX-License-Identifier: GPL-2.0
"""selftests/run-tests (tools/testing/asccheck/runtests.py) on fake test
programs: what it passes through, counts and says of a crash, a timeout,
missing results, a skipped program and one not built."""

import io
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import runtests  # noqa: E402

PROGRAMS = {
    "asc_event_good": "echo 1..2; echo ok 1 a; echo 'ok 2 b # SKIP no'",
    "asc_event_bad": "echo 1..2; echo ok 1 a; echo not ok 2 b; exit 1",
    "asc_event_crash": "echo 1..3; echo ok 1 a; kill -SEGV $$",
    "asc_event_status": "echo 1..1; echo ok 1 a; exit 3",
    "asc_event_skipall": "echo '1..0 # SKIP no device'; exit 4",
    "asc_event_hang": "echo 1..1; exec sleep 30",
}


class RunTestsTest(unittest.TestCase):
    """run-tests' output and counts."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.here = os.path.join(self.tmp.name, "selftests")
        self.out = os.path.join(self.tmp.name, "build")
        os.makedirs(self.here)
        os.makedirs(self.out)
        with open(os.path.join(self.here, "settings"), "w") as f:
            f.write("timeout=1\n")
        names = list(PROGRAMS) + ["asc_event_unbuilt"]
        with open(os.path.join(self.out, "kselftest-list.txt"), "w") as f:
            f.writelines("asc_event:%s\n" % n for n in names)
        for name, script in PROGRAMS.items():
            path = os.path.join(self.out, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n%s\n" % script)
            os.chmod(path, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def run_tests(self, *args):
        out = io.StringIO()
        status = runtests.main(["-o", self.out] + list(args), self.here, out)
        return status, out.getvalue().splitlines()

    def test_passing_and_skipped(self):
        status, lines = self.run_tests("good", "asc_event_skipall")
        self.assertEqual(status, 0)
        self.assertEqual(lines[:4], ["# selftests: asc_event: asc_event_good",
                                     "1..2", "ok 1 a", "ok 2 b # SKIP no"])
        self.assertRegex(lines[4], r"^# asc_event_good: ran for \d+\.\d\d s$")
        self.assertIn("# asc_event_good: 1 passed, 0 failed, 1 skipped", lines)
        self.assertIn("# asc_event_skipall: 0 passed, 0 failed, 1 skipped",
                      lines)
        self.assertEqual(lines[-1], "selftests: 1 passed, 0 failed, 2 skipped")

    def test_failures_crashes_and_statuses(self):
        status, lines = self.run_tests("bad", "crash", "status", "unbuilt")
        self.assertEqual(status, 1)
        self.assertIn("# asc_event_bad: 1 passed, 1 failed, 0 skipped", lines)
        self.assertNotIn("# asc_event_bad: exit status 1", lines)
        self.assertIn("# asc_event_crash: exit status 139", lines)
        self.assertIn("# asc_event_crash: 2 of 3 planned results missing",
                      lines)
        self.assertIn("# asc_event_crash: 1 passed, 2 failed, 0 skipped", lines)
        self.assertIn("# asc_event_status: exit status 3", lines)
        self.assertIn("# asc_event_status: 1 passed, 1 failed, 0 skipped",
                      lines)
        self.assertIn("# asc_event_unbuilt: %s/asc_event_unbuilt is not built"
                      % self.out, lines)
        self.assertIn("# asc_event_unbuilt: 0 passed, 1 failed, 0 skipped",
                      lines)
        self.assertEqual(lines[-1], "selftests: 3 passed, 5 failed, 0 skipped")

    def test_timeout(self):
        status, lines = self.run_tests("hang")
        self.assertEqual(status, 1)
        self.assertIn("# asc_event_hang: timed out after 1 s", lines)
        self.assertIn("# asc_event_hang: 1 of 1 planned results missing", lines)
        self.assertEqual(lines[-1], "selftests: 0 passed, 1 failed, 0 skipped")

    def test_usage_errors(self):
        script = os.path.join(TOP, "selftests", "run-tests")
        for args, says in ((["-o", self.out, "nosuch"],
                            "no test program 'nosuch'; there are: "
                            "asc_event_good"),
                           (["-x"], "usage: "),
                           (["-o", self.tmp.name], "build the tests first")):
            proc = subprocess.run([script] + args, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  check=False)
            self.assertEqual(proc.returncode, 2, args)
            self.assertIn(says, proc.stderr)
            self.assertEqual(proc.stdout, "")

    def test_output_directory_from_the_environment(self):
        script = os.path.join(TOP, "selftests", "run-tests")
        proc = subprocess.run([script, "good"], stdout=subprocess.PIPE,
                              text=True, check=False,
                              env=dict(os.environ,
                                       ASC_SELFTESTS_OUTPUT=self.out))
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertEqual(proc.stdout.splitlines()[-1],
                         "selftests: 1 passed, 0 failed, 1 skipped")


if __name__ == "__main__":
    unittest.main()

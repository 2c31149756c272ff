# SPDX-License-Identifier: GPL-2.0
"""`make module` run several times at once for one kernel release.

Runs at once used to race on the links and Kbuild's dependency files of
build/driver/RELEASE/ ("ln: File exists", "fixdep: error opening file").
Here KDIR is fake-kbuild/, which takes a second per build and fails when
two builds overlap in one directory, and BUILD a temporary directory.
"""

import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FAKE_KBUILD = os.path.join(HERE, "fake-kbuild")


class ModuleBuildTest(unittest.TestCase):
    """The top Makefile's module and module-clean targets."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def make(self, target, release="fake-release"):
        """Start `make TARGET` for RELEASE into the temporary build
        directory."""
        return subprocess.Popen(
            ["make", "-s", "--no-print-directory", "-C", TOP, target,
             "BUILD=" + self.build, "KERNEL_RELEASE=" + release,
             "KDIR=" + FAKE_KBUILD],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def wait_all(self, procs):
        for p in procs:
            out, _ = p.communicate(timeout=120)
            self.assertEqual(p.returncode, 0, out)

    def test_builds_at_once_take_turns(self):
        self.wait_all([self.make("module") for _ in range(3)])
        ko = os.path.join(self.build, "driver", "fake-release",
                          "asc_event.ko")
        with open(ko) as f:
            self.assertEqual(f.read(), "fake module\n")

    def test_clean_and_build_at_once_take_turns(self):
        self.wait_all([self.make("module")])
        self.wait_all([self.make("module-clean"), self.make("module"),
                       self.make("module-clean"), self.make("module")])

    def test_other_releases_build_in_parallel(self):
        self.wait_all([self.make("module", "fake-a"),
                       self.make("module", "fake-b")])
        for release in ("fake-a", "fake-b"):
            self.assertTrue(os.path.isfile(os.path.join(
                self.build, "driver", release, "asc_event.ko")))


if __name__ == "__main__":
    unittest.main()

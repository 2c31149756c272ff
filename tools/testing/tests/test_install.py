# SPDX-License-Identifier: GPL-2.0
"""The pieces of tools/testing/asc-check-install and asc-kselftest-tree
(asccheck/install.py, hostinstall.py, checks.py, kselftest.py) that decide
a verdict: the README's blocks, file lists, the checks' bodies, guest TAP
counted as one's own, the kselftest tree's counts."""

import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))

# pylint: disable=wrong-import-position
from asccheck import checks, hostinstall, install, kselftest, tap  # noqa: E402

README = """\
# asc-event

    not a block of Install

## Install

On the host:

    tools/scripts/asc-install-deps
    make install

    echo still the first block
Text ends it.

    modprobe asc_event

Then:

    make uninstall
## Next

    not ours
"""


class ReadmeTest(unittest.TestCase):
    """The command blocks of README.md's Install section."""

    def test_blocks(self):
        self.assertEqual(hostinstall.readme_blocks(README), [
            "tools/scripts/asc-install-deps\nmake install\n"
            "echo still the first block\n",
            "modprobe asc_event\n", "make uninstall\n"])

    def test_the_readme_has_three(self):
        with open(os.path.join(TOP, "README.md")) as f:
            blocks = hostinstall.readme_blocks(f.read())
        self.assertEqual(len(blocks), 3)
        self.assertIn("make install", blocks[0])
        self.assertIn("make uninstall", blocks[2])


class FilesTest(unittest.TestCase):
    """Listing a stage, and the bodies of the DESTDIR checks."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.stage = self.tmp.name
        os.makedirs(self.stage + "/usr/lib/empty")
        os.makedirs(self.stage + "/etc")
        open(self.stage + "/etc/b", "w").close()
        open(self.stage + "/usr/lib/libx.so.1", "w").close()
        os.symlink("libx.so.1", self.stage + "/usr/lib/libx.so")
        os.symlink("empty", self.stage + "/usr/lib/dirlink")

    def tearDown(self):
        self.tmp.cleanup()

    def test_files_and_links(self):
        self.assertEqual(install.files(self.stage),
                         ["etc/b", "usr/lib/dirlink", "usr/lib/libx.so",
                          "usr/lib/libx.so.1"])

    def test_same_files(self):
        body = install.Install.same_files(
            ["usr/lib/libx.so", "usr/lib/libx.so.1", "etc/b", "etc/c",
             "usr/lib/dirlink"], self.stage)
        notes = []
        self.assertFalse(body(notes))
        self.assertEqual(notes, ["expected (<) and installed (>):",
                                 "< etc/c"])
        self.assertTrue(install.Install.same_files(
            install.files(self.stage), self.stage)([]))

    def test_empty_dir(self):
        notes = []
        self.assertFalse(install.Install.empty_dir(self.stage)(notes))
        self.assertIn("usr/lib/empty", notes)
        empty = os.path.join(self.stage, "usr", "lib", "empty")
        self.assertTrue(install.Install.empty_dir(empty)([]))


class ChecksTest(unittest.TestCase):
    """Checks: commands, bodies, and guest runs counted as one's own."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = io.StringIO()
        self.c = checks.Checks(self.tmp.name, self.out)

    def tearDown(self):
        self.tmp.cleanup()

    def test_command_and_body(self):
        self.c.check("true", ["true"])
        self.c.check("says", ["sh", "-c", "seq 50; exit 1"])
        self.c.check("body", lambda notes: notes.append("why") or False)
        lines = self.out.getvalue().splitlines()
        self.assertEqual(lines[0], "ok 1 - true")
        self.assertEqual(lines[1], "# 11")
        self.assertEqual(lines[40:], ["# 50", "not ok 2 - says", "# why",
                                      "not ok 3 - body"])
        self.assertEqual(self.c.failures, 2)

    def test_guest_results_renumbered(self):
        self.c.ok("before")
        log = os.path.join(self.tmp.name, "guest.log")
        self.c.guest("guest", log, ["printf", "boot\\nok 1 - a\\n"
                                    "ok 2 - b # SKIP x\\nnot ok 3 - c\\n"])
        self.assertEqual(self.out.getvalue(),
                         "ok 1 - before\n# boot\nok 2 - a\n"
                         "ok 3 - b # SKIP x\nnot ok 4 - c\n")
        r = tap.read(self.out.getvalue())
        self.assertEqual((r.passed, r.failed, r.skipped), (2, 1, 1))

    def test_guest_that_failed_without_a_failure(self):
        log = os.path.join(self.tmp.name, "guest.log")
        self.c.guest("the guest run", log,
                     ["sh", "-c", "echo ok 1 - a; exit 125"])
        self.assertEqual(self.out.getvalue(), "ok 1 - a\nnot ok 2 - the guest "
                         "run (exit status 125)\n")
        self.c.guest("again", log, ["sh", "-c", "echo not ok 1 - a; exit 1"])
        self.assertNotIn("again", self.out.getvalue())


class KselftestTreeTest(unittest.TestCase):
    """What asc-kselftest-tree counts in the guest's output and the tree."""

    def test_counts(self):
        lines = ["TAP version 13", "ok 1 selftests: drivers/asc_event: a",
                 "# ok 1 inner", "# # ok 2 deeper",
                 "not ok 2 selftests: drivers/asc_event: b # exit=1",
                 "ok 3 selftests: other: c",
                 "# run_tests: ok 1 selftests: drivers/asc_event: a # SKIP",
                 "# run_tests: ok 2 selftests: drivers/asc_event: b # SKIP"]
        within = "selftests: drivers/asc_event: "
        self.assertEqual(kselftest.count(lines, "", within), (2, 1))
        self.assertEqual(kselftest.count(lines, "# run_tests: ", within),
                         (2, 0))

    def test_defined_options(self):
        with tempfile.TemporaryDirectory() as tree:
            os.makedirs(tree + "/arch/x86")
            with open(tree + "/arch/x86/Kconfig.debug", "w") as f:
                f.write("config A\n\tbool\n menuconfig B \n"
                        "\tdepends on C\nconfig D # no\n")
            with open(tree + "/Makefile", "w") as f:
                f.write("config E\n")
            self.assertEqual(kselftest.defined_options(tree), {"A", "B"})
        opts = kselftest.config_options(os.path.join(TOP, "selftests",
                                                     "config"))
        self.assertTrue(opts)


if __name__ == "__main__":
    unittest.main()

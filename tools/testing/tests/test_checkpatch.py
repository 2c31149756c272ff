# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-checkpatch with a fake checkpatch.pl: both passes and
their options, findings fail, clean files are not checked again until
they, the options or checkpatch.pl change, and a checkpatch.pl that fails
without naming a file fails the run and marks nothing clean."""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import checkpatch  # noqa: E402

# Logs each call's arguments to $FAKE_LOG; a file holding "BAD" gets a
# finding, one holding "CRASH" makes it die without naming a file.
FAKE = r"""
my @files = grep { -f $_ } @ARGV;
open(my $log, '>>', $ENV{FAKE_LOG}) or die;
print $log join(' ', @ARGV), "\n";
my $status = 0;
for my $f (@files) {
	open(my $in, '<', $f) or die;
	local $/;
	my $text = <$in>;
	exit 2 if $text =~ /CRASH/;
	if ($text =~ /BAD/) {
		print "$f:1: ERROR:FAKE: bad\n";
		$status = 1;
	}
}
exit $status;
"""


class CheckpatchTest(unittest.TestCase):
    """asc-checkpatch's passes, verdicts and cache of clean files."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.top = os.path.join(self.tmp.name, "tree")
        for path, text in (("driver/a.c", "int a;\n"), ("driver/a.h", "\n"),
                           ("uapi/linux/u.h", "\n"), ("lib/l.c", "int l;\n"),
                           ("tools/t.c", "int t;\n"), ("tools/notes.txt", "BAD\n")):
            self.write(path, text)
        self.git("init", "-q")
        self.git("add", ".")
        self.fake = os.path.join(self.tmp.name, "checkpatch.pl")
        with open(self.fake, "w", encoding="utf-8") as f:
            f.write(FAKE)
        self.log = os.path.join(self.tmp.name, "calls")
        self.env = dict(os.environ)
        os.environ.update(ASC_CHECKPATCH=self.fake, FAKE_LOG=self.log)
        self.cwd = os.getcwd()

    def tearDown(self):
        os.chdir(self.cwd)
        os.environ.clear()
        os.environ.update(self.env)
        self.tmp.cleanup()

    def write(self, path, text):
        """Write TEXT to PATH of the tree."""
        path = os.path.join(self.top, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def git(self, *args):
        """git ARGS in the tree."""
        subprocess.run(["git", "-C", self.top] + list(args), check=True)

    def run_it(self):
        """asc-checkpatch on the tree: (exit status, output, the calls of
        checkpatch.pl made, each the list of files it was given)."""
        if os.path.exists(self.log):
            os.unlink(self.log)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = checkpatch.main([], self.top)
        calls = []
        if os.path.exists(self.log):
            with open(self.log, encoding="utf-8") as f:
                calls = [line.split() for line in f]
        return status, out.getvalue(), calls

    @staticmethod
    def files(call):
        """The files of a call: what follows -f."""
        return call[call.index("-f") + 1:]

    def test_two_passes_then_nothing_left_to_check(self):
        status, out, calls = self.run_it()
        self.assertEqual(0, status, out)
        self.assertEqual(2, len(calls))
        self.assertIn("--strict", calls[0])
        self.assertEqual(["driver/a.c", "driver/a.h", "uapi/linux/u.h"],
                         self.files(calls[0]))
        self.assertNotIn("--strict", calls[1])
        self.assertEqual(checkpatch.IGNORE, calls[1][calls[1].index("--ignore") + 1])
        self.assertEqual(["lib/l.c", "tools/t.c"], self.files(calls[1]))
        status, out, calls = self.run_it()
        self.assertEqual(0, status, out)
        self.assertEqual([], calls)
        self.assertIn("3 files, 0 checked, 3 clean before and unchanged", out)

    def test_a_finding_fails_and_is_checked_again(self):
        self.write("lib/l.c", "BAD\n")
        for _ in range(2):
            status, out, calls = self.run_it()
            self.assertEqual(1, status)
            self.assertIn("lib/l.c:1: ERROR:FAKE: bad", out)
            self.assertIn("lib/l.c", self.files(calls[-1]))
        self.write("lib/l.c", "int l;\n")
        status, out, calls = self.run_it()
        self.assertEqual(0, status, out)
        self.assertEqual([["lib/l.c"]], [self.files(c) for c in calls])

    def test_a_change_of_file_or_checkpatch_checks_again(self):
        self.run_it()
        self.write("driver/a.h", "/* changed */\n")
        _, _, calls = self.run_it()
        self.assertEqual([["driver/a.h"]], [self.files(c) for c in calls])
        with open(self.fake, "a", encoding="utf-8") as f:
            f.write("# a new checkpatch.pl\n")
        _, _, calls = self.run_it()
        self.assertEqual(2, len(calls))
        self.assertEqual(3, len(self.files(calls[0])))

    def test_a_failure_naming_no_file_marks_nothing_clean(self):
        self.write("tools/t.c", "CRASH\n")
        status, out, _ = self.run_it()
        self.assertEqual(1, status)
        self.assertIn("checkpatch.pl failed (exit status 2) and named no file", out)
        self.write("tools/t.c", "int t;\n")
        _, _, calls = self.run_it()
        self.assertEqual(["lib/l.c", "tools/t.c"], self.files(calls[-1]))

    def test_untracked_userspace_files_are_not_checked(self):
        self.write("lib/scratch.c", "BAD\n")
        status, out, _ = self.run_it()
        self.assertEqual(0, status, out)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-coverage on the gcov data of a small program built here.

The program has one branch per argument; runs with different arguments
leave .gcda files that asc-coverage must read, add up and report: the
lines and branches reached, every line not reached, the --min limit, and
data of another build refused.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ASC_COVERAGE = os.path.join(TOP, "tools", "testing", "asc-coverage")

PROGRAM = """\
#include <string.h>

static int pick(const char *arg)
{
	if (!strcmp(arg, "a"))
		return 1;
	return 2;
}

int main(int argc, char **argv)
{
	int n = 0;

	if (argc > 1)
		n = pick(argv[1]);
	return n == 1 ? 0 : 3;
}
"""
# Lines of PROGRAM (1-based) that only some runs reach.
ONLY_A = 6      # return 1;
ONLY_B = 7      # return 2;


@unittest.skipUnless(shutil.which("gcc") and shutil.which("gcov"),
                     "gcc and gcov are needed")
class CoverageTest(unittest.TestCase):
    """asc-coverage's table, unreached lines and verdicts."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "src")
        self.obj = os.path.join(self.tmp.name, "obj")
        os.mkdir(self.src)
        os.mkdir(self.obj)
        self.build(PROGRAM)

    def tearDown(self):
        self.tmp.cleanup()

    def build(self, text):
        """Compile TEXT as src/prog.c with gcov's counters."""
        with open(os.path.join(self.src, "prog.c"), "w") as f:
            f.write(text)
        subprocess.run(["gcc", "--coverage", "-O0", "-o",
                        os.path.join(self.obj, "prog"),
                        os.path.join(self.src, "prog.c")], check=True,
                       cwd=self.obj)

    def run_program(self, name, *args):
        """Run the program with ARGS; its data in a new directory NAME."""
        for f in os.listdir(self.obj):
            if f.endswith(".gcda"):
                os.unlink(os.path.join(self.obj, f))
        subprocess.run([os.path.join(self.obj, "prog")] + list(args),
                       check=False)
        out = os.path.join(self.tmp.name, name)
        os.mkdir(out)
        for f in os.listdir(self.obj):
            if f.endswith((".gcda", ".gcno")):
                shutil.copy(os.path.join(self.obj, f), out)
        return out

    def coverage(self, *args):
        """tools/testing/asc-coverage --sources src ARGS: (status, output)."""
        proc = subprocess.run([ASC_COVERAGE, "--sources", self.src]
                              + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              check=False)
        return proc.returncode, proc.stdout

    def table_row(self, output, name):
        """The words of the table row of NAME."""
        for line in output.splitlines():
            words = line.split()
            if len(words) > 1 and words[1].endswith(name):
                return words[1:]
        self.fail("no row %s in:\n%s" % (name, output))
        return None

    def test_one_run_lists_what_it_missed(self):
        status, out = self.coverage(self.run_program("run-a", "a"))
        self.assertEqual(status, 0, out)
        row = self.table_row(out, "prog.c")
        lines, branches = row[2], row[4]
        reached, total = (int(x) for x in lines.strip("()").split("/"))
        self.assertEqual(total - reached, 1, out)
        taken, all_branches = (int(x) for x in branches.strip("()").split("/"))
        self.assertLess(taken, all_branches, out)
        self.assertIn("# lines no run reached: 1\n", out)
        self.assertIn("prog.c:%d: return 2;" % ONLY_B, out)
        self.assertNotIn("prog.c:%d:" % ONLY_A, out)
        self.assertIn("# total ", out)
        self.assertTrue(out.rstrip().split("\n")[-1].startswith(
            "ok 1 driver line coverage "), out)

    def test_runs_add_up(self):
        a = self.run_program("run-a", "a")
        b = self.run_program("run-b", "b")
        status, out = self.coverage("--min", "100", a, b)
        self.assertEqual(status, 0, out)
        row = self.table_row(out, "prog.c")
        self.assertEqual(row[1], "100.0%", out)
        self.assertIn("# lines no run reached: 0\n", out)
        self.assertIn("ok 1 driver line coverage 100.0% (at least 100%)", out)

    def test_below_minimum_fails(self):
        status, out = self.coverage("--min", "100",
                                    self.run_program("run-a", "a"))
        self.assertEqual(status, 1, out)
        self.assertIn("not ok 1 driver line coverage ", out)

    def test_no_data_fails(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.mkdir(empty)
        status, out = self.coverage(empty)
        self.assertEqual(status, 1, out)
        self.assertIn("not ok 1 driver coverage: no data", out)

    def test_data_of_another_build_is_refused(self):
        a = self.run_program("run-a", "a")
        self.build(PROGRAM.replace("return 2;", "return 2 + (arg[0] == 0);"))
        b = self.run_program("run-b", "b")
        status, out = self.coverage(a, b)
        self.assertEqual(status, 1, out)
        self.assertIn("not from the module build of the other", out)

    def test_usage_error(self):
        status, _ = self.coverage()
        self.assertEqual(status, 2)

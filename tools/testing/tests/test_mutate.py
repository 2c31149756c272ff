# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-mutate (asccheck/mutants.py, mutate.py): the mutants
file read and checked, a mutant applied, and a guest run's output judged
caught, survived or an error."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

# pylint: disable=wrong-import-position
from asccheck import mutants, mutate  # noqa: E402

DRIVER_C = "int f(int x)\n{\n\tif (x)\n\t\treturn 1;\n\treturn 0;\n}\n"
DOC = "Title\n=====\n\nThe flag\n--------\n\ntext\n"
MUTANTS = """\
# comment
mutant: flag-inverted
file: a.c
breaks: f is 1 for x
doc: a.rst The flag
tests: pool ids
tests-m32: abi
=\tif (x)
-\t\treturn 1;
+\t\treturn 2;

mutant: bad name
file: b.c
breaks: nothing
doc: a.rst Nowhere
tests: nosuch
-missing line
+x
"""


class MutantsTest(unittest.TestCase):
    """The mutants file against a small driver and its documentation."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        for d in ("driver", "Documentation"):
            os.makedirs(os.path.join(self.tmp.name, d))
        self.write("driver/a.c", DRIVER_C)
        self.write("Documentation/a.rst", DOC)
        self.path = self.write("mutants.txt", MUTANTS)
        self.saved = mutants.DRIVER, mutants.DOCS
        mutants.DRIVER = os.path.join(self.tmp.name, "driver")
        mutants.DOCS = os.path.join(self.tmp.name, "Documentation")

    def tearDown(self):
        mutants.DRIVER, mutants.DOCS = self.saved
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_parse_and_apply(self):
        m = mutants.parse_mutants(self.path)[0]
        self.assertEqual((m.name, m.file, m.doc), ("flag-inverted", "a.c",
                                                   ("a.rst", "The flag")))
        self.assertEqual((m.tests, m.tests32), (["pool", "ids"], ["abi"]))
        self.assertEqual(m.old, ["\tif (x)", "\t\treturn 1;"])
        self.assertEqual(m.new, ["\tif (x)", "\t\treturn 2;"])
        self.assertEqual(m.where, "mutants.txt:2")
        self.assertEqual(m.apply(DRIVER_C), DRIVER_C.replace("return 1;",
                                                             "return 2;"))

    def test_check_names_every_problem(self):
        ms = mutants.parse_mutants(self.path)
        with self.assertRaises(mutants.DataError) as e:
            mutants.check_mutants(ms, {"asc_event_pool", "asc_event_ids",
                                       "asc_event_abi"})
        errors = str(e.exception).split("\n")
        self.assertTrue(all("mutant bad name" in x for x in errors), errors)
        for says in ("lower-case letters", "no selftest program 'nosuch'",
                     "no section 'Nowhere'", "No such file"):
            self.assertTrue(any(says in x for x in errors), (says, errors))
        mutants.check_mutants(ms[:1], {"asc_event_pool", "asc_event_ids",
                                       "asc_event_abi"})

    def test_a_driver_that_moved_on(self):
        ms = mutants.parse_mutants(self.path)[:1]
        self.write("driver/a.c", DRIVER_C.replace("return 1;", "return -1;"))
        with self.assertRaises(mutants.DataError) as e:
            mutants.check_mutants(ms, {"asc_event_pool", "asc_event_ids",
                                       "asc_event_abi"})
        self.assertIn("occurs 0 times in driver/a.c", str(e.exception))

    def test_malformed(self):
        for text, says in (("-x\n", "snippet line outside a mutant"),
                           ("file: a.c\n", "before the first 'mutant:'"),
                           ("mutant: a\nwhat: b\n", "unknown key 'what'"),
                           ("mutant: a\nno colon\n", "expected 'key: value'")):
            with self.assertRaises(mutants.DataError) as e:
                mutants.parse_mutants(self.write("bad.txt", text))
            self.assertIn(says, str(e.exception))


RUN = """\
# selftests: asc_event: asc_event_pool
1..3
ok 1 global.alloc
not ok 2 global.release
ok 3 global.skip # SKIP no
# asc_event_pool: ran for 1.00 s
# selftests: asc_event: asc_event_ids
# asc_event_ids: timed out after 450 s
# asc_event_ids: ran for 450.00 s
asc-vm: kernel log problems:
"""


class JudgeTest(unittest.TestCase):
    """A guest run's output judged."""

    def test_failures(self):
        tests, other = mutate.failures(RUN)
        self.assertEqual(tests, ["pool:global.release"])
        self.assertEqual(other, ["ids timed out after 450 s",
                                 "kernel log problems"])

    def test_classify(self):
        self.assertEqual(mutate.classify(0, RUN), ("survived", ""))
        self.assertEqual(mutate.classify(1, RUN), (
            "caught", "1 failed: pool:global.release; ids timed out after "
            "450 s; kernel log problems"))
        self.assertEqual(mutate.classify(2, "")[0], "error")
        self.assertEqual(mutate.classify(125, "")[0], "error")
        self.assertEqual(mutate.classify(
            125, "asc-vm: the guest kernel panicked\n")[0], "caught")
        self.assertEqual(mutate.classify(124, ""),
                         ("caught", "the guest timed out"))

    def test_guest_command(self):
        cmd = mutate.guest_command(["pool"], ["abi"])
        self.assertEqual(cmd[:2], ["sh", "-c"])
        self.assertIn("selftests/run-tests pool;", cmd[2])
        self.assertIn("selftests/run-tests -o build/selftests32 abi;", cmd[2])
        self.assertTrue(cmd[2].endswith("; exit $rc"))


if __name__ == "__main__":
    unittest.main()

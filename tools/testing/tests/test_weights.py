# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asccheck/weights.py: the selftest shards, weighed by the
last run's times: learned, kept, defaulted."""

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import weights  # noqa: E402

PROGRAMS = ["asc_event_a", "asc_event_b", "asc_event_c", "asc_event_d",
            "asc_event_e"]


class WeightsTest(unittest.TestCase):
    """Learning from run-tests' output, keeping, splitting."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "build", "check-times.json")

    def tearDown(self):
        self.tmp.cleanup()

    def test_learned_from_run_tests_output(self):
        shard1 = ("# selftests: asc_event: asc_event_a\nok 1 x\n"
                  "# asc_event_a: ran for 10.50 s\n"
                  "# asc_event_b: exit status 1\n# asc_event_b: ran for 2.00 s\n")
        shard2 = "#   # asc_event_c: ran for 9 s\n# asc_event_c: ran for 0.25 s\n"
        self.assertEqual(weights.learned([shard1, shard2]),
                         {"asc_event_a": 10.5, "asc_event_b": 2.0,
                          "asc_event_c": 0.25})

    def test_kept_per_kernel_merged_and_pruned(self):
        weights.save(self.path, "6.1", {"asc_event_a": 3.0, "asc_event_z": 1},
                     PROGRAMS)
        weights.save(self.path, "6.12", {"asc_event_a": 9.0}, PROGRAMS)
        weights.save(self.path, "6.1", {"asc_event_b": 2.0}, PROGRAMS)
        self.assertEqual(weights.load(self.path, "6.1"),
                         {"asc_event_a": 3.0, "asc_event_b": 2.0})
        self.assertEqual(weights.load(self.path, "6.12"), {"asc_event_a": 9.0})
        self.assertEqual(weights.load(self.path, "debug"), {})
        self.assertEqual(os.listdir(os.path.dirname(self.path)),
                         ["check-times.json"])

    def test_nothing_kept_or_garbage(self):
        self.assertEqual(weights.load(self.path, "6.1"), {})
        os.makedirs(os.path.dirname(self.path))
        for text in ("not json", "[1, 2]", json.dumps({"6.1": [1]}),
                     json.dumps({"6.1": {"asc_event_a": "x",
                                         "asc_event_b": -1}})):
            with open(self.path, "w") as f:
                f.write(text)
            self.assertEqual(weights.load(self.path, "6.1"), {}, text)
        weights.save(self.path, "6.1", {"asc_event_a": 1.0}, PROGRAMS)
        self.assertEqual(weights.load(self.path, "6.1"), {"asc_event_a": 1.0})

    def test_default_is_the_median_or_a_second(self):
        self.assertEqual(weights.weigh(["x", "y"], {}), {"x": 1.0, "y": 1.0})
        w = weights.weigh(["x", "y", "z", "new"], {"x": 1, "y": 4, "z": 10})
        self.assertEqual(w["new"], 4)

    def test_split_balances_and_keeps_the_list_order(self):
        times = {"asc_event_a": 1, "asc_event_b": 10, "asc_event_c": 6,
                 "asc_event_d": 5, "asc_event_e": 2}
        shards = weights.split(PROGRAMS, times, 2)
        self.assertEqual(shards, [["asc_event_b", "asc_event_e"],
                                  ["asc_event_a", "asc_event_c",
                                   "asc_event_d"]])
        self.assertEqual(sorted(sum(shards, [])), PROGRAMS)

    def test_split_follows_what_was_learned(self):
        before = weights.split(PROGRAMS, {}, 2)
        self.assertEqual([len(s) for s in before], [3, 2])
        run = "".join("# %s: ran for %d s\n" % (p, 30 if p == "asc_event_a"
                                                  else 1) for p in PROGRAMS)
        weights.save(self.path, "6.1", weights.learned([run]), PROGRAMS)
        after = weights.split(PROGRAMS, weights.load(self.path, "6.1"), 2)
        self.assertEqual(after[0], ["asc_event_a"])
        self.assertEqual(len(after[1]), 4)

    def test_more_shards_than_programs(self):
        self.assertEqual(weights.split(["asc_event_a"], {}, 2),
                         [["asc_event_a"], []])


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asccheck/jobs.py: N jobs side by side, judged in the order
they started, each with its status, wall and CPU time."""

import os
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from asccheck import jobs  # noqa: E402


class SchedulerTest(unittest.TestCase):
    """The scheduler on short sleeping and spinning jobs."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.judged = []
        self.started = []

    def tearDown(self):
        self.tmp.cleanup()

    def job(self, name, run):
        return jobs.Job(name, os.path.join(self.tmp.name, name + ".log"), run,
                        lambda j: self.judged.append((j.name, j.status,
                                                      time.monotonic())))

    def test_side_by_side_judged_in_start_order(self):
        s = jobs.Scheduler(3, self.started.append)
        flag = os.path.join(self.tmp.name, "flag")
        # The first job ends only once the second has run: with one job
        # at a time it would wait its 10 s out and exit 9.
        s.start(self.job("slow", ["sh", "-c", "for i in $(seq 100); do "
                                  "[ -e %s ] && echo slow && exit 3; "
                                  "sleep 0.1; done; exit 9" % flag]))
        s.start(self.job("fast", ["sh", "-c", "echo fast >&2; touch " + flag]))
        s.start(self.job("mid", lambda: (time.sleep(0.1), print("mid"))[0]))
        s.finish()
        self.assertEqual(self.started, ["slow", "fast", "mid"])
        self.assertEqual([(n, st) for n, st, _ in self.judged],
                         [("slow", 3), ("fast", 0), ("mid", 0)])
        for name in ("slow", "fast", "mid"):
            log = os.path.join(self.tmp.name, name + ".log")
            with open(log) as f:
                self.assertEqual(f.read(), name + "\n")
            with open(log + ".rc") as f:
                self.assertEqual(int(f.read()), dict(slow=3).get(name, 0))

    def test_at_most_n_at_once(self):
        s = jobs.Scheduler(2)
        trace = os.path.join(self.tmp.name, "trace")
        for i in range(4):
            s.start(self.job("j%d" % i, ["sh", "-c", "echo + >> %s; sleep 0.1;"
                                         " echo - >> %s" % (trace, trace)]))
        s.finish()
        running = most = 0
        with open(trace) as f:
            for mark in f.read().split():
                running += 1 if mark == "+" else -1
                most = max(most, running)
        self.assertEqual(most, 2)
        self.assertEqual(len(self.judged), 4)

    def test_a_job_is_judged_once_those_before_it_are(self):
        s = jobs.Scheduler(2)
        s.start(self.job("first", ["sleep", "0.5"]))
        s.start(self.job("second", ["true"]))
        s.start(self.job("third", ["true"]))
        s.finish()
        self.assertEqual([n for n, _, _ in self.judged],
                         ["first", "second", "third"])

    def test_wall_and_cpu_time(self):
        def spin():
            end = time.process_time() + 0.1
            while time.process_time() < end:
                pass
            return 0
        s = jobs.Scheduler(2)
        idle = s.start(self.job("idle", ["sleep", "0.2"]))
        busy = s.start(self.job("busy", spin))
        s.finish()
        self.assertGreaterEqual(idle.wall, 0.19)
        self.assertLess(sum(idle.cpu), 0.09)
        self.assertGreaterEqual(sum(busy.cpu), 0.09)
        with open(idle.log + ".ms") as f:
            self.assertGreaterEqual(int(f.read()), 190)
        self.assertRegex(jobs.cpu_text((61.5, 0.25)), r"^1m1\.500s \+ 0m0\.250s$")

    def test_statuses_of_a_failing_function_and_a_signal(self):
        def raises():
            raise RuntimeError("broken")
        s = jobs.Scheduler(3)
        a = s.start(self.job("raises", raises))
        b = s.start(self.job("exits", lambda: sys.exit(7)))
        c = s.start(self.job("killed", ["sh", "-c", "kill -9 $$"]))
        s.finish()
        self.assertEqual((a.status, b.status, c.status), (125, 7, 137))
        with open(a.log) as f:
            self.assertIn("RuntimeError: broken", f.read())

    def test_background_job_takes_a_slot_and_is_not_judged(self):
        s = jobs.Scheduler(2)
        bg = jobs.Job("bg", os.path.join(self.tmp.name, "bg.log"),
                      ["sh", "-c", "sleep 0.3; exit 5"])
        s.start(bg)
        waiter = self.job("waiter",
                          lambda: jobs.wait_for(bg.log, poll=0.05) + 1)
        s.start(waiter)
        s.finish()
        self.assertEqual(self.judged[0][:2], ("waiter", 6))
        self.assertEqual(len(self.judged), 1)

    def test_run_now(self):
        j = jobs.Job("now", os.path.join(self.tmp.name, "now.log"),
                     lambda: print("here") or 2)
        self.assertEqual(jobs.run_now(j), 2)
        with open(j.log) as f:
            self.assertEqual(f.read(), "here\n")


if __name__ == "__main__":
    unittest.main()

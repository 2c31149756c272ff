# SPDX-License-Identifier: GPL-2.0
"""tools/testing/asc-check [--all]: `make check` and `make check-all`.

Documentation/reliability.rst describes the lanes.  This module runs them:
the host steps one after another, then the jobs side by side (jobs.py),
each judged in the order it started (verdicts.py); after check-all's jobs
the coverage and the table (table.py); after the quick run the selftests'
times are learned for the next run's shards (weights.py).  The last lines
are the wall time and "N passed, N failed"; the exit status is 1 when
anything failed.
"""

import os
import shutil
import sys
import time

from . import jobs, table, weights
from .lanes import GUEST, Check
from .verdicts import Verdicts, read_lines

DEFAULT_KERNELS = "6.1 6.12 6.12-rt debug"
SHARDS = 2
QUICK_SLOTS = 10


def usage():
    """The usage error."""
    sys.stderr.write("usage: %s [--all]\n" % sys.argv[0])
    return 2


def programs(top):
    """The selftest programs of kselftest-list.txt, in order."""
    return [line.split(":", 1)[1] for line in read_lines(
        os.path.join(top, "build", "selftests", "kselftest-list.txt"))
            if line.startswith("asc_event:")]


class Run:
    """A check's run: its Check, Verdicts and Scheduler."""

    def __init__(self, top, mode, kernels, slots):
        self.check = Check(top, mode, kernels)
        self.verdicts = Verdicts(self.check.log("failures"))
        self.scheduler = jobs.Scheduler(slots, self._started)
        self.times = os.path.join(top, "build", "check-times.json")

    @staticmethod
    def _started(name):
        print("# asc-check: started: " + name, flush=True)

    def _judge(self, kind):
        def judge(job):
            print("# %s: %.1f s, CPU %s" % (job.name, job.wall,
                                            jobs.cpu_text(job.cpu)),
                  flush=True)
            getattr(self.verdicts, kind)(job.name, job.log, job.status)
        return judge

    def step(self, kind, name, log, run):
        """A host step, run now and judged."""
        job = jobs.Job(name, self.check.log(log), run)
        status = jobs.run_now(job)
        getattr(self.verdicts, kind)(name, job.log, status)

    def job(self, kind, name, log, run):
        """A job, started side by side with the others."""
        self.scheduler.start(jobs.Job(name, self.check.log(log), run,
                                      self._judge(kind)))

    def host_steps(self):
        """What runs before the jobs: builds and host tests."""
        c = self.check
        self.step("build", "userspace builds with -Wall -Wextra -Werror",
                  "userspace.log",
                  ["make", "--no-print-directory", "lib", "tools", "selftests"])
        self.step("build", "selftests build with -m32", "userspace32.log",
                  ["make", "--no-print-directory", "-C", "selftests",
                   "TOP=" + c.top, "M32=1"])
        self.step("tap", "uAPI header test", "uapi-check.log",
                  ["tools/testing/asc-uapi-check"])
        self.step("tap", "libasc tests", "lib-tests.log",
                  ["make", "--no-print-directory", "-s", "-C", "lib", "check"])
        self.step("plain", "ascctl trace -i: a saved trace becomes JSON and "
                  "SVG", "ascctl-offline.log", c.ascctl_offline)
        self.step("plain", "ascctl trace -i and load on input an outside "
                  "review found mishandled", "ascctl-review.log",
                  c.ascctl_review)
        for k in c.kernels:
            if k != "debug":
                c.ko[k] = c.module_ko(k)
                self.verdicts.result("module builds for the guests of " + k,
                                     c.ko[k] is not None)

    def quick_first(self, kernel):
        """The three longest jobs of the quick run, first."""
        c = self.check
        self.job("tap", "%s: guest run, Python" % kernel,
                 "guest-%s-python.log" % kernel,
                 c.vm(kernel, "--", GUEST, "--python"))
        self.job("tap", "%s: guest run, programs and examples" % kernel,
                 "guest-%s-programs.log" % kernel,
                 c.vm(kernel, "--", GUEST, "--programs", "--examples"))
        self.job("tap", "%s: guest run, ascctl and traces" % kernel,
                 "guest-%s-ascctl.log" % kernel,
                 c.vm(kernel, "--", GUEST, "--ascctl"))

    def long_lanes(self):
        """check-all's long guest runs: two kernels, then debug (whose
        kernel builds meanwhile), then the kselftest tree, then the rest;
        event_ids=4 after all.  The short jobs come after these: the
        longest first, so that none is left alone at the end."""
        c = self.check
        lanes = [k for k in c.kernels if k != "debug"]
        if "debug" in c.kernels:
            lanes = lanes[:2] + ["debug"] + lanes[2:]

        def long_runs(k):
            self.job("tap", "%s: guest run, long tests" % k, "guest-%s.log" % k,
                     lambda: c.long_run(k, "head"))
            self.job("tap", "%s: guest run, the long tail" % k,
                     "guest-%s-tail.log" % k, lambda: c.long_run(k, "tail"))

        for k in lanes[:3]:
            long_runs(k)
        self.job("tap", "kselftest tree", "kselftest-tree.log",
                 ["tools/testing/asc-kselftest-tree"])
        for k in lanes[3:]:
            long_runs(k)
        for k in lanes:
            self.job("tap", "%s: guest run, event_ids=4" % k,
                     "guest-ids4-%s.log" % k, lambda k=k: c.ids4_lane(k))

    def common_jobs(self):
        """The jobs of both runs: W=1 builds, checkpatch, installs, tools."""
        c = self.check
        for k in c.kernels:
            self.job("build", "module builds for %s with W=1 and sparse (C=1),"
                     " no warning" % k, "module-w1-%s.log" % k,
                     lambda k=k: c.module_gate(k))
        self.job("build", "checkpatch clean: driver, uAPI (--strict), userspace C",
                 "checkpatch.log", ["tools/testing/asc-checkpatch"])
        args = ["--no-host"] if c.mode == "quick" else []
        self.job("tap", "install tests", "install.log",
                 ["tools/testing/asc-check-install"] + args + c.kernels)
        self.job("tap", "tools tests", "tools-tests.log",
                 ["tools/testing/tests/run-tests"])

    def shards(self, kernel):
        """The quick run's selftest guests, split by the last run's times."""
        c = self.check
        split = weights.split(programs(c.top),
                              weights.load(self.times, kernel), SHARDS)
        for i, shard in enumerate(split):
            self.job("tap", "%s: guest run, selftests %d/%d"
                     % (kernel, i + 1, SHARDS),
                     "guest-%s-%d.log" % (kernel, i + 1),
                     c.vm(kernel, "--", GUEST, *shard))
        self.job("tap", "%s: guest run, event_ids=4" % kernel,
                 "guest-ids4-%s.log" % kernel, lambda: c.ids4_run(kernel))

    def learn(self, kernel):
        """Keep the selftests' times of this run for the next one's split."""
        c = self.check
        texts = ["\n".join(read_lines(c.log("guest-%s-%d.log" % (kernel, i))))
                 for i in range(1, SHARDS + 1)]
        weights.save(self.times, kernel, weights.learned(texts),
                     programs(c.top))

    def coverage(self):
        """The driver's coverage from the debug runs' gcov data."""
        c = self.check
        print("# asc-check: the driver's line and branch coverage on debug")
        self.step("tap", "driver coverage", "coverage.log",
                  ["tools/testing/asc-coverage", "--min", "95"]
                  + [c.log(d + "/gcov") for d in
                     ("out-debug", "out-debug-tail", "out-ids4-debug")])
        shown = False
        for line in read_lines(c.log("coverage.log")):
            shown = shown or line.startswith("# driver coverage")
            if shown:
                print(line)
            if line.startswith("# lines no run reached"):
                break

    def table(self, kcsan):
        """The closing table of check-all."""
        c = self.check
        rows = []
        for k in c.kernels + (["kcsan"] if kcsan else []):
            logs = [c.log("guest-%s.log" % k)]
            if k != "kcsan":
                logs += [c.log("guest-%s-tail.log" % k),
                         c.log("guest-ids4-%s.log" % k)]
            rows.append(table.row(k, logs))
        for line in table.render(rows):
            print(line)

    def finish(self, t_start):
        """The closing lines; the exit status."""
        v = self.verdicts
        if v.tally.skipped:
            print("# %d skipped" % v.tally.skipped)
        kept = read_lines(v.failures)
        if kept:
            print("# failures, each after the lines that led to it (logs in "
                  "build/check/):")
            for line in kept[:60]:
                print("#   " + line)
        print("# wall time: %.1f s" % (time.monotonic() - t_start))
        print(v.tally.line(), flush=True)
        return 1 if v.tally.failed else 0


def main(argv, top):
    """asc-check ARGV in the tree TOP; the exit status."""
    if argv not in ([], ["--all"]):
        return usage()
    mode = "all" if argv else "quick"
    env = os.environ
    if mode == "all":
        kernels = (env.get("ASC_CHECK_KERNELS") or DEFAULT_KERNELS).split()
        slots = int(env.get("ASC_CHECK_JOBS") or 2)
    else:
        kernels = [env.get("KERNEL") or "6.1"]
        # Every job at once (ten, 1 GiB per guest): the selftests, install
        # and tools tests wait more than they compute, and in fewer slots
        # they end the run after the guests that compute.
        slots = int(env.get("ASC_CHECK_JOBS") or QUICK_SLOTS)
        # One virtual CPU: on two, TCG takes about twice the host's CPU
        # time for the same tests.  check-all's guests have two.
        env.setdefault("ASC_VM_CPUS", "1")
    os.chdir(top)
    t_start = time.monotonic()
    run = Run(top, mode, kernels, slots)
    c = run.check
    shutil.rmtree(c.logs, ignore_errors=True)
    os.makedirs(c.logs)

    print("# asc-check: build and host tests", flush=True)
    if "debug" in kernels:
        # Niced beside the host tests and the first long runs, up to its
        # first user; it takes a job slot meanwhile.
        run.scheduler.start(jobs.Job(
            "debug kernel build (niced, beside the rest)",
            c.log("debug-kernel.log"), c.debug_build))
    run.host_steps()
    print("# asc-check: side by side, %d at a time" % slots, flush=True)
    kcsan = mode == "all" and env.get("ASC_CHECK_KCSAN", "0") == "1"
    if mode == "all":
        run.long_lanes()
        if kcsan:
            run.job("tap", "kcsan: kernel build and data-race tests on two "
                    "CPUs", "guest-kcsan.log", c.kcsan_lane)
    else:
        run.quick_first(kernels[0])
    run.common_jobs()
    if mode == "quick":
        run.shards(kernels[0])
    run.scheduler.finish()

    if mode == "all" and "debug" in kernels:
        run.coverage()
    if mode == "all":
        run.table(kcsan)
    else:
        run.learn(kernels[0])
    return run.finish(t_start)

# SPDX-License-Identifier: GPL-2.0
"""Jobs side by side: at most N at once, judged in the order they started.

A job is a command (an argument list) or a Python function returning an
exit status, run in a child process of its own with its output in its log
and no standard input.  When a job ends the scheduler notes its exit
status, wall time and CPU time (the child's and its descendants', from
wait4) and writes LOG.rc and LOG.ms beside the log (so that another job
can wait for it: wait_for()).  Jobs are handed to their judge in the order
they were started, each as soon as it and every job started before it
have ended.  A background job (judge=None) takes a slot and is judged by
nobody.
"""

import os
import sys
import time


class Job:
    """One job: NAME, LOG, what it runs (RUN: a list or a function),
    JUDGE (called with the job once it ended, or None); then STATUS, WALL
    (seconds) and CPU ((user, system) seconds)."""

    def __init__(self, name, log, run, judge=None):
        self.name = name
        self.log = log
        self.run = run
        self.judge = judge
        self.pid = None
        self.started = None
        self.status = None
        self.wall = None
        self.cpu = (0.0, 0.0)

    @property
    def done(self):
        """Whether the job ended."""
        return self.status is not None


def _child(job):
    """In the child: run JOB with its output in its log; never returns."""
    status = 125
    try:
        fd = os.open(job.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        os.close(null)
        if callable(job.run):
            status = job.run()
            status = status if isinstance(status, int) else 0
        else:
            os.execvp(job.run[0], job.run)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    except BaseException as e:  # pylint: disable=broad-except
        print("asc-check: job %s: %s: %s" % (job.name, type(e).__name__, e),
              file=sys.stderr)
        status = 125
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status & 0xff)  # pylint: disable=protected-access


def _fork(job):
    """Start JOB in a child process; its pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    job.started = time.monotonic()
    job.pid = os.fork()
    if job.pid == 0:
        _child(job)
    return job.pid


def _write(path, text):
    """Write TEXT to PATH atomically."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


class Scheduler:
    """Runs jobs, SLOTS at once; ANNOUNCE(text) is told of each start."""

    def __init__(self, slots, announce=None):
        self.slots = max(1, slots)
        self.announce = announce
        self.running = {}
        self.queue = []

    def start(self, job):
        """Start JOB once a slot is free; judge what ended meanwhile."""
        while len(self.running) >= self.slots:
            self._reap()
            self._judge_ready()
        if job.judge is not None:
            self.queue.append(job)
        if self.announce:
            self.announce(job.name)
        self.running[_fork(job)] = job
        return job

    def _reap(self):
        """Wait for one job to end and note how it did."""
        pid, status, usage = os.wait4(-1, 0)
        job = self.running.pop(pid, None)
        if job is None:
            return
        _ended(job, status, usage)

    def _judge_ready(self):
        """Judge the jobs at the head of the queue that have ended."""
        while self.queue and self.queue[0].done:
            job = self.queue.pop(0)
            job.judge(job)

    def finish(self):
        """Wait for every job, judging each in the order of its start."""
        while self.running:
            self._reap()
            self._judge_ready()
        self._judge_ready()


def run_now(job):
    """Run JOB in a child of its own, as a job, and wait for it; its exit
    status (also in JOB)."""
    _, status, usage = os.wait4(_fork(job), 0)
    _ended(job, status, usage)
    return job.status


def _ended(job, status, usage):
    """Note how JOB ended: its wait STATUS and resource USAGE."""
    job.wall = time.monotonic() - job.started
    job.cpu = (usage.ru_utime, usage.ru_stime)
    job.status = os.waitstatus_to_exitcode(status)
    if job.status < 0:
        job.status = 128 - job.status
    _write(job.log + ".ms", "%d\n" % round(job.wall * 1000))
    _write(job.log + ".rc", "%d\n" % job.status)


def wait_for(log, poll=2.0):
    """In a job: wait until the job whose log is LOG ended; its status."""
    while not os.path.exists(log + ".rc"):
        time.sleep(poll)
    with open(log + ".rc", encoding="utf-8") as f:
        return int(f.read().strip() or 125)


def cpu_text(cpu):
    """(user, system) seconds as the shell's times builtin shows them."""
    def one(s):
        return "%dm%.3fs" % (s // 60, s % 60)
    return "%s + %s" % (one(cpu[0]), one(cpu[1]))

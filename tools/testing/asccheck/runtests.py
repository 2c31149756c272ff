# SPDX-License-Identifier: GPL-2.0
"""selftests/run-tests: run the selftest programs, pass their TAP through
and count it.

Each program runs under the timeout of selftests/settings and its output
is passed through as it comes, framed by "# selftests: asc_event: NAME";
when it ends, "# NAME: ran for T s" (what tools/testing/asccheck/weights.py
learns the shards from).  A program that crashes, times out or reports
fewer results than it planned counts its missing results as failed (one
when it planned none).  Then one summary line per program and the last,
"selftests: N passed, N failed, N skipped".
"""

import getopt
import os
import shutil
import subprocess
import sys
import time

from . import tap

PREFIX = "asc_event:"
TIMED_OUT = (124, 137)      # timeout(1): TERM, and KILL after -k
NOT_BUILT = 127


def usage(prog):
    """The usage error: exit status 2."""
    sys.stderr.write("usage: %s [-o DIR] [PROGRAM...]\n" % prog)
    return 2


def listed(out):
    """The programs of OUT/kselftest-list.txt in order, or None."""
    try:
        with open(os.path.join(out, "kselftest-list.txt"),
                  encoding="utf-8") as f:
            return [line[len(PREFIX):].strip() for line in f
                    if line.startswith(PREFIX)]
    except OSError:
        return None


def choose(names, programs):
    """The PROGRAMS that NAMES name (with or without the asc_event_
    prefix), in the order given; raises LookupError on a name that is
    none."""
    chosen = []
    for name in names:
        found = [p for p in programs if p in (name, "asc_event_" + name)]
        if not found:
            raise LookupError(name)
        chosen.append(found[-1])
    return chosen


def settings_timeout(here):
    """The timeout of HERE/settings, 120 s without one."""
    try:
        with open(os.path.join(here, "settings"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("timeout="):
                    return int(line.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return 120


class Program:
    """One program's run: its Report, exit status and time."""

    def __init__(self, name):
        self.name = name
        self.report = tap.Report()
        self.status = 0
        self.seconds = 0.0
        self.failed = 0

    def finish(self, timeout):
        """The lines that judge the run; sets FAILED."""
        lines = []
        rep = self.report
        crashed = self.status not in (0, tap.KSFT_SKIP) and rep.failed == 0
        if self.status in TIMED_OUT:
            lines.append("# %s: timed out after %d s" % (self.name, timeout))
        elif self.status != NOT_BUILT and crashed:
            lines.append("# %s: exit status %d" % (self.name, self.status))
        extra = 0
        if rep.missing:
            lines.append("# %s: %d of %d planned results missing"
                         % (self.name, rep.missing, rep.plan))
            extra = rep.missing
        elif crashed:
            extra = 1
        self.failed = rep.failed + extra
        lines.append("# %s: ran for %.2f s" % (self.name, self.seconds))
        return lines

    def summary(self):
        """Its summary line."""
        return "# %s: %d passed, %d failed, %d skipped" % (
            self.name, self.report.passed, self.failed, self.report.skipped)


def run_one(prog, path, runner, timeout, out):
    """Run the program at PATH under RUNNER, passing its output to OUT."""
    t0 = time.monotonic()
    if not os.access(path, os.X_OK):
        print("# %s: %s is not built" % (prog.name, path), file=out,
              flush=True)
        prog.status = NOT_BUILT
    else:
        proc = subprocess.Popen(runner + [path], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        with proc.stdout:
            for raw in proc.stdout:
                line = raw.decode("utf-8", "replace")
                prog.report.add(line)
                out.write(line if line.endswith("\n") else line + "\n")
                out.flush()
        status = proc.wait()
        # Killed by a signal: as a shell's $? says it.
        prog.status = 128 - status if status < 0 else status
    prog.seconds = time.monotonic() - t0
    for line in prog.finish(timeout):
        print(line, file=out, flush=True)


def main(argv, here, out=sys.stdout):
    """run-tests ARGV, the selftests directory HERE; the exit status."""
    prog_name = sys.argv[0] if sys.argv else "run-tests"
    outdir = os.environ.get("ASC_SELFTESTS_OUTPUT") or os.path.join(
        here, "..", "build", "selftests")
    try:
        opts, names = getopt.getopt(argv, "o:h")
    except getopt.GetoptError:
        return usage(prog_name)
    for opt, value in opts:
        if opt != "-o":
            return usage(prog_name)
        outdir = value
    programs = listed(outdir)
    if programs is None:
        sys.stderr.write("%s: no %s/kselftest-list.txt: build the tests "
                         "first (make -C selftests)\n" % (prog_name, outdir))
        return 2
    try:
        chosen = choose(names, programs) if names else programs
    except LookupError as e:
        sys.stderr.write("%s: no test program '%s'; there are: %s\n"
                         % (prog_name, e.args[0], " ".join(programs)))
        return 2
    timeout = settings_timeout(here)
    runner = (["timeout", "-k", "5", str(timeout)]
              if shutil.which("timeout") else [])
    done = []
    for name in chosen:
        print("# selftests: asc_event: " + name, file=out, flush=True)
        prog = Program(name)
        run_one(prog, os.path.join(outdir, name), runner, timeout, out)
        done.append(prog)
    total = tap.Tally()
    for prog in done:
        print(prog.summary(), file=out)
        total.passed += prog.report.passed
        total.failed += prog.failed
        total.skipped += prog.report.skipped
    print("selftests: %d passed, %d failed, %d skipped"
          % (total.passed, total.failed, total.skipped), file=out, flush=True)
    return 1 if total.failed else 0

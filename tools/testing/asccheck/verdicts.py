# SPDX-License-Identifier: GPL-2.0
"""What a step or a job of the check comes to, printed, counted, and its
failures kept in build/check/failures for the end of the run.

build   passes when the command succeeds and prints no diagnostic
        ("warning:" or "error:"); the diagnostics are shown when it fails
tap     counts the log's TAP results (tap.py), prints them, each failure
        after the 19 lines that led to it; a run that failed without a
        "not ok" of its own (a crash, a hang, a dirty kernel log) counts
        once, with the end of its log
plain   passes when the command succeeds; the end of its output when not
"""

import re
import sys

from . import tap

DIAGNOSTIC = re.compile(r"(warning|error):")
SHOWN = re.compile(r"(warning|error|ERROR|WARNING|CHECK)")
SHOWN_BEFORE = 19       # lines printed before a "not ok"
KEPT_BEFORE = 11        # lines kept with it for the end of the run
# The exit statuses of tools/testing/asc-vm for a run that did not finish,
# a failure of its own whatever the TAP before it said.
UNFINISHED = {124: ": timed out", 125: ": the guest died or the runner failed"}


def read_lines(path):
    """The lines of PATH, [] when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def grep_context(lines, pattern, before, after):
    """The LINES matching PATTERN with BEFORE and AFTER lines of context,
    groups apart separated by "--", as grep -B -A prints them."""
    keep = set()
    for i, line in enumerate(lines):
        if pattern.search(line):
            keep.update(range(max(0, i - before),
                              min(len(lines), i + after + 1)))
    out, last = [], None
    for i in sorted(keep):
        if last is not None and i != last + 1:
            out.append("--")
        out.append(lines[i])
        last = i
    return out


def has_diagnostic(path):
    """Whether the log PATH has a compiler's warning or error."""
    return any(DIAGNOSTIC.search(line) for line in read_lines(path))


class Verdicts:
    """The verdicts of one check: the Tally, and the failures file."""

    def __init__(self, failures, out=None):
        self.tally = tap.Tally()
        self.failures = failures
        self.out = out

    def _print(self, text):
        print(text, file=self.out or sys.stdout, flush=True)

    def _keep(self, lines):
        with open(self.failures, "a", encoding="utf-8") as f:
            f.writelines(line + "\n" for line in lines)

    def result(self, name, ok):
        """One result of the check itself, "ok - NAME" or "not ok - NAME"."""
        if ok:
            self.tally.passed += 1
            self._print("ok - " + name)
        else:
            self.tally.failed += 1
            self._print("not ok - " + name)
            self._keep(["not ok - " + name])

    def build(self, name, log, status):
        """A build's verdict: STATUS and the diagnostics of LOG."""
        if status == 0 and has_diagnostic(log):
            status = 1
        if status != 0:
            lines = ["    " + line for line in read_lines(log)]
            for line in grep_context(lines, SHOWN, 2, 4)[:60]:
                self._print(line)
        self.result(name, status == 0)

    def tap(self, name, log, status):
        """A TAP run's verdict: its results, and STATUS when it failed
        without a failure of its own or when the run did not finish (a
        guest that timed out or died: the results after are missing)."""
        report = tap.read(read_lines(log))
        for r in report.results:
            if r.failed:
                for line in report.before(r.index, SHOWN_BEFORE):
                    self._print("    " + line)
                self._keep(report.before(r.index, KEPT_BEFORE)
                           + [report.lines[r.index]])
            self._print(report.lines[r.index])
        self.tally.add(report)
        if status in UNFINISHED or (status != 0 and report.failed == 0):
            for line in report.lines[-20:]:
                self._print("    " + line)
            self._keep(report.lines[-12:])
            self.result("%s (exit status %d%s)" % (
                name, status, UNFINISHED.get(status, "")), False)

    def plain(self, name, log, status):
        """A plain step's verdict: STATUS, and the end of LOG if it failed."""
        if status != 0:
            for line in read_lines(log)[-20:]:
                self._print("    " + line)
        self.result(name, status == 0)

# SPDX-License-Identifier: GPL-2.0
"""`make check-all`'s closing table: one row per kernel of what its guest
runs counted and measured.

passed, failed  the TAP results of its guest logs (tap.py)
stress-ops      the soak test's operations ("# soak: N ops ...")
fuzz-ioctls     the fuzzer's ioctls ("# ioctls: N in ...")
faults          the faults injected ("# faults injected in all: ...",
                every number of the line)
kmemleak        the runner's suspected leaks ("asc-vm: kmemleak: N ...")
log-finds       the runner's kernel-log findings ("asc-vm: kernel log: N
                finding...")
"""

import re

from . import tap
from .verdicts import read_lines

COLUMNS = ("kernel", "passed", "failed", "stress-ops", "fuzz-ioctls",
           "faults", "kmemleak", "log-finds")
FORMAT = "%-8s %6s %6s %12s %12s %8s %9s %9s"
METRICS = (
    re.compile(r"^# soak: ([0-9]+) ops"),
    re.compile(r"^# ioctls: ([0-9]+) in "),
    None,
    re.compile(r"^asc-vm: kmemleak: ([0-9]+) suspected"),
    re.compile(r"^asc-vm: kernel log: ([0-9]+) finding"),
)
FAULTS = "# faults injected in all: "


def metric(lines, pattern):
    """The sum of PATTERN's number over LINES (faults: every number of
    the line when PATTERN is None)."""
    total = 0
    for line in lines:
        if pattern is None:
            if line.startswith(FAULTS):
                total += sum(int(n) for n in re.findall(r"[0-9]+",
                                                        line[len(FAULTS):]))
        else:
            found = pattern.match(line)
            if found:
                total += int(found.group(1))
    return total


def row(kernel, logs):
    """The row of KERNEL from its guest LOGS (paths; a missing one counts
    nothing)."""
    lines = [line for path in logs for line in read_lines(path)]
    report = tap.read(lines)
    return [kernel, report.passed, report.failed] + [
        metric(lines, p) for p in METRICS]


def render(rows):
    """The table of ROWS as its lines, "#" first."""
    out = ["#", "# " + FORMAT % COLUMNS]
    for r in rows:
        out.append("# " + FORMAT % tuple(str(x) for x in r))
    return out

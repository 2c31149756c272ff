# SPDX-License-Identifier: GPL-2.0
"""TAP as the guest side writes it.

Everything the guest prints goes through a Tap: result lines, comments,
and a flush before any program that writes to the same stdout runs.
The host counts each "ok N" and "not ok N" line (tools/testing/asc-check),
so the numbers need not run on across the programs of one guest.  Where
the guest side reads TAP (asc-bench's lines, the KCSAN lane's selftest
log) it uses the tree's one reader, asccheck.tap.
"""

import sys


class Tap:
    """A TAP stream on OUT: numbered results, comments, the plan.

    FIXED, when given, is the number every result line carries (the
    single-test programs of asc-check-guest all say "ok 1").  PREFIX
    starts every test name (asc-check-install-guest's "- guest R: ").
    """

    def __init__(self, out=None, fixed=None, prefix=""):
        self.out = out or sys.stdout
        self.fixed = fixed
        self.prefix = prefix
        self.count = 0
        self.failed = 0

    def write(self, line):
        """One line, flushed: programs run next write to the same fd."""
        self.out.write(line + "\n")
        self.out.flush()

    def comment(self, text):
        """TEXT as comments, one "# " line per line; nothing for ""."""
        for line in lines(text):
            self.write("# " + line)

    def result(self, ok, name):
        """One result line; the number of results so far."""
        self.count += 1
        number = self.count if self.fixed is None else self.fixed
        if not ok:
            self.failed += 1
        self.write("%sok %d %s%s" % ("" if ok else "not ", number, self.prefix, name))
        return self.count

    def plan(self):
        """The plan after the results: "1..N"."""
        self.write("1..%d" % self.count)


def lines(text):
    """The lines of TEXT without the last newline; none for ""."""
    if not text:
        return []
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


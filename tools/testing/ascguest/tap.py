# SPDX-License-Identifier: GPL-2.0
"""TAP as the guest side writes it, and the one place where it reads TAP.

Everything the guest prints goes through a Tap: result lines, comments,
and a flush before any program that writes to the same stdout runs.
The host counts each "ok N" and "not ok N" line (tools/testing/asc-check),
so the numbers need not run on across the programs of one guest.

results() is the guest side's only TAP reader (asc-bench's lines, the
KCSAN lane's selftest log): a small seam for the host side's reader,
asccheck.tap, to take its place once both are in one tree.
"""

import re
import sys

RESULT = re.compile(r"^(not )?ok ([0-9]+)\b ?(.*)$")
DIRECTIVE = re.compile(r"#\s*((?:SKIP|TODO)\b.*)$", re.I)


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


def results(text):
    """The result lines of the TAP TEXT: (ok, number, description,
    directive) each, the directive "SKIP ..." or "TODO ..." or ""."""
    found = []
    for line in text.split("\n"):
        m = RESULT.match(line)
        if not m:
            continue
        rest = m.group(3)
        d = DIRECTIVE.search(rest)
        desc = rest[:d.start()] if d else rest
        found.append((m.group(1) is None, int(m.group(2)), desc.strip(),
                      d.group(1).strip() if d else ""))
    return found


def skipped(result):
    """Whether a result of results() is a skip."""
    return result[3].upper().startswith("SKIP")

# SPDX-License-Identifier: GPL-2.0
"""The one TAP reader of the tree, and the writer of numbered results.

Every test program of the tree prints TAP (kselftest's harness, libasc's
and the tools' tests, the guest scripts).  A result is a line that starts
"ok N" or "not ok N" at its first column; lines indented or behind "#"
(a harness's nested output, comments) are not results, and neither is a
result without its number (the check's own "ok - NAME" summaries).  A
result is skipped when "# SKIP" follows it; "not ok" with "# TODO" is an
expected failure and counts as passed, as kselftest's XFAIL does.  A plan
"1..N" says how many results to expect; "1..0 # SKIP why" skips the whole
program, which counts as one skip.
"""

import re

RESULT = re.compile(r"^(not )?ok (\d+)\b ?(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)\b(.*)$")
DIRECTIVE = re.compile(r"#\s*(SKIP|TODO)\b\s*(.*)$", re.I)

# kselftest's exit statuses (kselftest.h): KSFT_SKIP means the program
# skipped, and is no failure.
KSFT_PASS = 0
KSFT_FAIL = 1
KSFT_SKIP = 4


class Result:
    """One result line: OK (bool), NUMBER, TEXT (the rest of the line),
    DIRECTIVE ("SKIP", "TODO" or None) and INDEX, its line's index."""

    def __init__(self, ok, number, text, index):
        self.ok = ok
        self.number = number
        self.text = text
        self.index = index
        found = DIRECTIVE.search(text)
        self.directive = found.group(1).upper() if found else None
        self.reason = found.group(2) if found else ""

    @property
    def description(self):
        """The text without its directive and a leading "- "."""
        text = DIRECTIVE.sub("", self.text).strip()
        return text[2:] if text.startswith("- ") else text

    @property
    def skipped(self):
        """Whether the result is a skip."""
        return self.ok and self.directive == "SKIP"

    @property
    def failed(self):
        """Whether the result is a failure (a "not ok" not marked TODO)."""
        return not self.ok and self.directive != "TODO"

    @property
    def passed(self):
        """Whether the result counts as passed."""
        return not self.failed and not self.skipped


class Report:
    """What a TAP stream says, read line by line with add().

    lines     every line read, without its newline
    results   the Result of each result line, in order
    plan      the planned number of results (of the last plan), or None
              before a plan
    skip_all  the reason when the last plan is "1..0 # SKIP", else None
    skipped_plans  how many plans skipped a whole program (a stream of
              several programs has a plan each)
    """

    def __init__(self):
        self.lines = []
        self.results = []
        self.plan = None
        self.skip_all = None
        self.skipped_plans = 0

    def add(self, line):
        """Read one more LINE; its Result when it is one, else None."""
        line = line.rstrip("\n")
        index = len(self.lines)
        self.lines.append(line)
        found = RESULT.match(line)
        if found:
            result = Result(not found.group(1), int(found.group(2)),
                            found.group(3), index)
            self.results.append(result)
            return result
        found = PLAN.match(line)
        if found:
            self.plan = int(found.group(1))
            skip = DIRECTIVE.search(found.group(2))
            self.skip_all = None
            if self.plan == 0 and skip and skip.group(1).upper() == "SKIP":
                self.skip_all = skip.group(2)
                self.skipped_plans += 1
        return None

    @property
    def passed(self):
        """The results that count as passed."""
        return sum(1 for r in self.results if r.passed)

    @property
    def failed(self):
        """The results that failed."""
        return sum(1 for r in self.results if r.failed)

    @property
    def skipped(self):
        """The skipped results, and one for each skipped program."""
        return sum(1 for r in self.results if r.skipped) + self.skipped_plans

    @property
    def missing(self):
        """How many results the plan promised that did not come (in the
        stream of one program)."""
        if self.plan is None or self.skip_all is not None:
            return 0
        return max(0, self.plan - len(self.results))

    def before(self, index, count):
        """The COUNT lines before the line INDEX (fewer at the start)."""
        return self.lines[max(0, index - count):index]


def read(text):
    """The Report of the TAP TEXT (a string or lines)."""
    report = Report()
    for line in text.splitlines() if isinstance(text, str) else text:
        report.add(line)
    return report


def read_file(path):
    """The Report of the file PATH (empty when it cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return read(f.read())
    except OSError:
        return Report()


class Tally:
    """Passed, failed and skipped results summed over runs."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def add(self, report):
        """Count the results of REPORT (a Report or a Tally)."""
        self.passed += report.passed
        self.failed += report.failed
        self.skipped += report.skipped

    def line(self):
        """The closing line, "N passed, N failed"."""
        return "%d passed, %d failed" % (self.passed, self.failed)


class Writer:
    """Numbered TAP results printed as they come: "ok N - TEXT" (or
    "ok N PREFIXTEXT" when DASH is false), counting failures."""

    def __init__(self, out=None, prefix="", dash=True):
        self.out = out
        self.prefix = prefix
        self.sep = " - " if dash else " "
        self.count = 0
        self.failures = 0

    def _print(self, text):
        print(text, file=self.out, flush=True)

    def result(self, ok, text, directive=""):
        """One result; OK tells which."""
        self.count += 1
        if not ok:
            self.failures += 1
        self._print("%s %d%s%s%s%s" % ("ok" if ok else "not ok", self.count,
                                       self.sep, self.prefix, text,
                                       directive))

    def ok(self, text):
        """A passed result."""
        self.result(True, text)

    def not_ok(self, text):
        """A failed result."""
        self.result(False, text)

    def skip(self, text, reason):
        """A skipped result."""
        self.result(True, text, " # SKIP " + reason)

    def comment(self, text):
        """TEXT as "# " lines."""
        for line in text.rstrip("\n").split("\n") if text else []:
            self._print(("# " + line).rstrip())

    def plan(self):
        """The plan of what was printed, "1..N", at the end."""
        self._print("1..%d" % self.count)

# SPDX-License-Identifier: GPL-2.0
"""asc-coverage [--min PERCENT] [--sources SRCDIR] DIR...: the driver's line
and branch coverage.

Each DIR holds the coverage data of one guest run on a kernel with gcov
(debug): the .gcda files the guest copied out of debugfs after rmmod and
the .gcno files the compiler wrote with the module's objects, side by side
(tools/testing/asc-vm --output OUT leaves them in OUT/gcov/).  gcov (gcc's, with
--json-format) reads each object's pair; the counts of every DIR are added
up, so the runs together count as one.  Every DIR must come from the same
build of the module (identical .gcno files).

Printed as TAP comment lines: per source file of driver/ (or of SRCDIR;
the .c files and the inline functions of its headers), the lines reached out of the lines
with code, and the branches taken at least once out of all branches (what
`gcov -b` calls "Taken at least once"); the total; then every line with
code that no run reached, as FILE:LINE: SOURCE.  The last line is "ok 1"
or "not ok 1" with the total line coverage: not ok when there is no data,
or when the total is below --min PERCENT.

Exit status: 0 ok, 1 not ok, 2 usage error.  GCOV names the gcov program
(default gcov).
"""

import gzip
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))


def usage(status):
    """Print the usage and exit with STATUS."""
    (sys.stdout if status == 0 else sys.stderr).write(
        "usage: tools/testing/asc-coverage [--min PERCENT] [--sources SRCDIR] DIR...\n")
    sys.exit(status)


def comment(text=""):
    """Print TEXT as a TAP comment line."""
    print(("# " + text).rstrip())


class Coverage:
    """Counts per driver source line, summed over runs.

    lines     {(path, line): count}, every line with code
    branches  {(path, line, object, index): count}; a line of a header
              inlined into several objects has branches in each
    """

    def __init__(self, sources):
        self.sources = sources
        self.lines = {}
        self.branches = {}

    def add(self, obj, report):
        """Add the gcov JSON REPORT of the object named OBJ."""
        cwd = report.get("current_working_directory", "/")
        for f in report.get("files", []):
            path = os.path.realpath(os.path.join(cwd, f["file"]))
            if os.path.dirname(path) != self.sources:
                continue
            for ln in f.get("lines", []):
                key = (path, ln["line_number"])
                self.lines[key] = self.lines.get(key, 0) + ln["count"]
                for i, br in enumerate(ln.get("branches", [])):
                    bkey = key + (obj, i)
                    self.branches[bkey] = (self.branches.get(bkey, 0)
                                           + br["count"])


def gcov_json(gcov, directory, name):
    """gcov's JSON report of the object NAME whose .gcno and .gcda are in
    DIRECTORY."""
    proc = subprocess.run([gcov, "--branch-probabilities", "--json-format",
                           "--stdout", "--object-directory", directory,
                           name + ".gcda"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=directory, check=False)
    if proc.returncode != 0:
        raise RuntimeError("%s on %s/%s.gcda failed: %s" % (
            gcov, directory, name, proc.stderr.decode(errors="replace")))
    data = proc.stdout
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    # One JSON document per object, one per line.
    return [json.loads(line) for line in data.decode().splitlines()
            if line.strip()]


def read_bytes(path):
    """The contents of PATH as bytes."""
    with open(path, "rb") as f:
        return f.read()


def collect(gcov, dirs, sources):
    """The Coverage of the files in SOURCES from DIRS."""
    cov = Coverage(sources)
    notes = {}
    for d in (os.path.realpath(d) for d in dirs):
        names = sorted(n[:-5] for n in os.listdir(d) if n.endswith(".gcda"))
        if not names:
            raise RuntimeError("no .gcda file in " + d)
        for name in names:
            gcno = os.path.join(d, name + ".gcno")
            if not os.path.isfile(gcno):
                raise RuntimeError("no %s beside its .gcda" % gcno)
            text = read_bytes(gcno)
            if notes.setdefault(name, text) != text:
                raise RuntimeError("%s is not from the module build of the "
                                   "other directories" % gcno)
            for report in gcov_json(gcov, d, name):
                cov.add(name, report)
    return cov


def percent(part, whole):
    """PART of WHOLE in per cent, as text."""
    return "%5.1f%%" % (100.0 * part / whole) if whole else "    -"


def source_lines(path):
    """The lines of the file PATH."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def report(cov, runs):
    """Print the table and the unreached lines; the total line coverage in
    per cent."""
    files = sorted({p for p, _ in cov.lines})
    comment("driver coverage (gcov), %d run%s added up" % (
        runs, "" if runs == 1 else "s"))
    fmt = "%-28s %7s %11s %8s %11s"
    comment(fmt % ("file", "lines", "", "branches", ""))
    tl = tr = tb = tt = 0
    for path in files:
        lines = [c for (p, _), c in cov.lines.items() if p == path]
        br = [c for (p, *_), c in cov.branches.items() if p == path]
        reached = sum(1 for c in lines if c)
        taken = sum(1 for c in br if c)
        tl, tr, tb, tt = tl + len(lines), tr + reached, tb + len(br), tt + taken
        comment(fmt % (os.path.relpath(path, TOP), percent(reached, len(lines)),
                       "(%d/%d)" % (reached, len(lines)),
                       percent(taken, len(br)), "(%d/%d)" % (taken, len(br))))
    comment(fmt % ("total", percent(tr, tl), "(%d/%d)" % (tr, tl),
                   percent(tt, tb), "(%d/%d)" % (tt, tb)))
    unreached = sorted(k for k, c in cov.lines.items() if not c)
    comment()
    comment("lines no run reached: %d" % len(unreached))
    text = {}
    for path, line in unreached:
        if path not in text:
            text[path] = source_lines(path)
        src = text[path][line - 1] if line <= len(text[path]) else ""
        comment("%s:%d: %s" % (os.path.relpath(path, TOP), line,
                               src.expandtabs(8).strip()))
    return 100.0 * tr / tl if tl else 0.0


def main(argv):
    """The exit status."""
    minimum = None
    sources = os.path.join(TOP, "driver")
    args = list(argv)
    if args and args[0] in ("-h", "--help"):
        usage(0)
    while args and args[0] in ("--min", "--sources"):
        if len(args) < 2:
            usage(2)
        if args[0] == "--sources":
            sources = os.path.realpath(args[1])
        else:
            try:
                minimum = float(args[1])
            except ValueError:
                usage(2)
        args = args[2:]
    if not args or any(a.startswith("-") for a in args):
        usage(2)
    gcov = os.environ.get("GCOV") or "gcov"
    try:
        for d in args:
            if not os.path.isdir(d):
                raise RuntimeError("no directory " + d)
        cov = collect(gcov, args, sources)
    except (RuntimeError, OSError, ValueError) as e:
        comment("asc-coverage: %s" % e)
        print("not ok 1 driver coverage: no data")
        return 1
    if not cov.lines:
        comment("asc-coverage: the data names no source file of "
                + os.path.relpath(sources, TOP))
        print("not ok 1 driver coverage: no data")
        return 1
    total = report(cov, len(args))
    what = "driver line coverage %.1f%%" % total
    if minimum is not None:
        what += " (at least %g%%)" % minimum
        if total < minimum:
            print("not ok 1 " + what)
            return 1
    print("ok 1 " + what)
    return 0

# SPDX-License-Identifier: GPL-2.0
"""asc-mutate: mutation testing of the asc_event driver (`make mutate`).

Each mutant of tools/testing/mutants.txt is a plausible small bug: an exact snippet
of a driver file, its replacement, the documented behaviour it breaks and
the selftest programs that should notice.  For each mutant the tool writes
the driver's sources with the mutant applied into a scratch tree of its own
under build/mutate/ (driver/ is never touched), checks that the mutant
passes the static gates of `make check` (W=1, sparse, checkpatch --strict:
one that does not is reported as invalid, not as caught), builds the
module, and runs the named selftest programs in a QEMU guest with it
(tools/testing/asc-vm --module FILE -- selftests/run-tests PROGRAM...).  A mutant
is caught when a test fails (or the guest hangs, crashes or logs a kernel
warning), survived otherwise.

The unmutated driver first runs every program the chosen mutants name, so
that a test that fails anyway cannot count as a catch.
"""

import argparse
import concurrent.futures
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from . import tap
from .mutants import DataError, check_mutants, parse_mutants

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))
DRIVER = os.path.join(TOP, "driver")
WORK = os.path.join(TOP, "build", "mutate")
DEFAULT_DATA = os.path.join(TOP, "tools", "testing", "mutants.txt")
GOAL = 90.0

# A line of build output that fails a build step (as tools/testing/asc-check).
DIAGNOSTIC = re.compile(r"(warning|error):")


def run(cmd, log=None, cwd=TOP, timeout=None):
    """Run @cmd; its status and output (also written to @log)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout,
                           encoding="utf-8", errors="replace")
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode("utf-8", "replace") if isinstance(e.stdout, bytes) \
            else (e.stdout or "")
        rc, out = 124, out + "\n(timed out)\n"
    if log:
        with open(log, "w", encoding="utf-8") as f:
            f.write("$ %s\n%s" % (" ".join(cmd), out))
    return rc, out


class Slot:
    """A scratch copy of the driver that builds one mutant at a time.

    Only files whose text differs from the slot's copy are rewritten, so
    Kbuild recompiles just the mutated file and what includes it.
    """

    def __init__(self, n, kdir, checkpatch):
        self.dir = os.path.join(WORK, "slot-%d" % n)
        self.kdir = kdir
        self.checkpatch = checkpatch
        os.makedirs(self.dir, exist_ok=True)

    def write_sources(self, mutant=None):
        """Write the driver into the slot, @mutant applied; the mutated path."""
        mutated = None
        for src in sorted(os.listdir(DRIVER)):
            if not (src.endswith((".c", ".h")) or src == "Kbuild"):
                continue
            with open(os.path.join(DRIVER, src), encoding="utf-8") as f:
                text = f.read()
            dst = os.path.join(self.dir, src)
            if mutant and mutant.file == src:
                text = mutant.apply(text)
                mutated = dst
            try:
                with open(dst, encoding="utf-8") as f:
                    if f.read() == text:
                        continue
            except OSError:
                pass
            with open(dst, "w", encoding="utf-8") as f:
                f.write(text)
        return mutated

    def build(self, mutant, log):
        """Build the module; None, or why the mutant is invalid."""
        mutated = self.write_sources(mutant)
        # The static gates of make check: W=1 and sparse on what changed
        # (C=1 checks the files it recompiles), checkpatch on the file.
        rc, out = run(["make", "-C", self.kdir, "M=" + self.dir,
                       "ASC_TOP=" + TOP, "W=1", "C=1", "modules"], log)
        diags = [l for l in out.split("\n") if DIAGNOSTIC.search(l)]
        if rc or diags:
            return "build: " + (diags[0].strip() if diags else "make failed (%d)" % rc)
        if mutated:
            rc, out = run(["perl", self.checkpatch, "--no-tree", "--strict",
                           "--terse", "--show-types", "-f", mutated])
            with open(log, "a", encoding="utf-8") as f:
                f.write("$ checkpatch %s\n%s" % (mutated, out))
            if rc or out.strip():
                return "checkpatch: " + out.strip().split("\n")[0]
        return None

    @property
    def module(self):
        return os.path.join(self.dir, "asc_event.ko")


def guest_command(tests, tests32):
    """The command the guest runs: run-tests for each word size needed."""
    runs = []
    if tests:
        runs.append("selftests/run-tests " + " ".join(tests))
    if tests32:
        runs.append("selftests/run-tests -o build/selftests32 " + " ".join(tests32))
    # Every run, whatever the one before did; 2 (usage) wins, then 1.
    script = "rc=0; " + "; ".join(
        "%s; r=$?; [ $r -eq 0 ] || [ $rc -eq 2 ] || rc=$r" % r for r in runs)
    return ["sh", "-c", script + "; exit $rc"]


def failures(out):
    """The tests that failed in a guest run's output, and what else went wrong."""
    tests, other, prog = [], [], "?"
    report = tap.Report()
    for line in out.split("\n"):
        m = re.match(r"# selftests: asc_event: (\S+)", line)
        if m:
            prog = m.group(1).replace("asc_event_", "")
            continue
        result = report.add(line)
        if result is not None:
            if result.failed:
                tests.append("%s:%s" % (prog, (result.text.split() or ["?"])[0]))
            continue
        m = re.match(r"# (\S+): (timed out after \d+ s|exit status \d+)", line)
        if m:
            other.append("%s %s" % (m.group(1).replace("asc_event_", ""), m.group(2)))
            continue
        if re.match(r"asc-vm: (timeout|the guest kernel panicked|the guest died|"
                    r"kmemleak: [1-9])", line) or \
                line.startswith("asc-vm: kernel log problems"):
            other.append(line[len("asc-vm: "):].rstrip(":"))
    return tests, other


def summary(tests, other):
    """One line: how many tests failed, the first few, what else happened."""
    parts = []
    if tests:
        shown = ", ".join(tests[:3]) + (", ..." if len(tests) > 3 else "")
        parts.append("%d failed: %s" % (len(tests), shown))
    parts += list(dict.fromkeys(other))
    return "; ".join(parts)


def classify(rc, out):
    """caught, survived or error, with the reason, for a guest run."""
    if rc == 0:
        return "survived", ""
    tests, other = failures(out)
    if rc == 2:
        return "error", "usage error (status 2); see the run log"
    if rc == 125 and not any("panicked" in w or "died" in w for w in other):
        return "error", "runner or guest failure (status 125); see the run log"
    if rc == 124:
        other.append("the guest timed out")
    return "caught", summary(tests, other) or "status %d" % rc


def guest_run(module, tests, tests32, kernel, timeout, log):
    cmd = [os.path.join(TOP, "tools", "testing", "asc-vm"), "--kernel", kernel,
           "--timeout", str(timeout), "--module", module, "--"]
    return run(cmd + guest_command(tests, tests32), log, timeout=timeout + 60)


def prepare(kernel, need32):
    """Build the selftests and find the kernel build dir and checkpatch."""
    rc, out = run(["make", "--no-print-directory", "-s", "selftests"])
    if rc:
        sys.exit("asc-mutate: building the selftests failed:\n" + out)
    if need32:
        rc, out = run(["make", "--no-print-directory", "-s", "-C", "selftests",
                       "TOP=" + TOP, "M32=1"])
        if rc:
            sys.exit("asc-mutate: building the 32-bit selftests failed:\n" + out)
    rc, kdir = run([os.path.join(TOP, "tools", "testing", "asc-vm"), "--kernel", kernel,
                    "--print-kdir"])
    kdir = kdir.strip()
    if rc or not os.path.isdir(kdir):
        sys.exit("asc-mutate: no kernel build directory for %s: %s" % (kernel, kdir))
    checkpatch = sorted(glob.glob(os.path.join(TOP, "build", "checkpatch", "*",
                                               "scripts", "checkpatch.pl")))
    if not checkpatch:
        # tools/testing/asc-checkpatch unpacks it from linux-source into build/.
        run([os.path.join(TOP, "tools", "testing", "asc-checkpatch")])
        checkpatch = sorted(glob.glob(os.path.join(
            TOP, "build", "checkpatch", "*", "scripts", "checkpatch.pl")))
    if not checkpatch:
        sys.exit("asc-mutate: no checkpatch.pl; run tools/scripts/asc-install-deps")
    return kdir, checkpatch[-1]


def programs():
    """The selftest programs run-tests knows."""
    path = os.path.join(TOP, "build", "selftests", "kselftest-list.txt")
    with open(path, encoding="utf-8") as f:
        return {l.split(":", 1)[1].strip() for l in f if ":" in l}


def union(lists):
    return list(dict.fromkeys(p for l in lists for p in l))


def fmt_time(s):
    return "%d min %02d s" % (s // 60, s % 60) if s >= 60 else "%d s" % s


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="asc-mutate",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[1],
        epilog="""\
Exit status: 0 when the score reaches the goal and every mutant was valid
and ran; 1 otherwise; 2 on a usage error, a mutants file that does not
match the driver, or tests that fail on the unmutated driver.
Logs: build/mutate/logs/NAME.build.log and NAME.run.log.""")
    ap.add_argument("names", nargs="*", metavar="NAME",
                    help="run only these mutants (shell patterns allowed)")
    ap.add_argument("-l", "--list", action="store_true",
                    help="list the mutants and exit")
    ap.add_argument("-d", "--diff", action="store_true",
                    help="print each chosen mutant as a diff and exit")
    ap.add_argument("-c", "--check", action="store_true",
                    help="only check that each mutant applies to the driver "
                    "as it is and names programs and doc sections that exist")
    ap.add_argument("-k", "--keep-going", action="store_true",
                    help="go on after an invalid mutant or a runner error "
                    "(default: stop at the first)")
    ap.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="mutants built and run at once, each in its own guest "
                    "(default 1; each guest has 2 vCPUs)")
    ap.add_argument("--kernel", default="6.1",
                    help="test kernel (tools/testing/asc-vm --list; default 6.1)")
    ap.add_argument("--goal", type=float, default=GOAL, metavar="PERCENT",
                    help="score needed for exit status 0 (default %g)" % GOAL)
    ap.add_argument("--timeout", type=int, default=300, metavar="SECONDS",
                    help="limit of each mutant's guest run, what a mutant that "
                    "hangs the guest costs (default 300; the run of the "
                    "unmutated driver gets three times as long)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the run of the unmutated driver")
    ap.add_argument("--mutants", default=DEFAULT_DATA, metavar="FILE",
                    help="the mutants file (default tools/testing/mutants.txt)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("-j needs a positive number")

    try:
        mutants = parse_mutants(args.mutants)
    except (OSError, DataError) as e:
        sys.exit("asc-mutate: %s" % e)
    if args.names:
        chosen = [m for m in mutants
                  if any(fnmatch.fnmatchcase(m.name, p) for p in args.names)]
        for p in args.names:
            if not any(fnmatch.fnmatchcase(m.name, p) for m in mutants):
                print("asc-mutate: no mutant matches '%s'" % p, file=sys.stderr)
                sys.exit(2)
        mutants = chosen

    if args.list:
        for m in mutants:
            tests = " ".join(m.tests + ["%s(m32)" % t for t in m.tests32])
            print("%s  driver/%s  [%s]" % (m.name, m.file, tests))
            print("    %s" % m.describe())
        return 0

    if not os.path.exists(os.path.join(TOP, "build", "selftests", "kselftest-list.txt")):
        run(["make", "--no-print-directory", "-s", "selftests"])
    try:
        check_mutants(mutants, programs())
    except (OSError, DataError) as e:
        print("asc-mutate: the mutants do not match the driver:\n%s" % e, file=sys.stderr)
        return 2

    if args.check:
        print("%d mutants apply to the driver" % len(mutants))
        return 0
    if args.diff:
        for m in mutants:
            with open(os.path.join(DRIVER, m.file), encoding="utf-8") as f:
                text = f.read()
            print("# %s: %s" % (m.name, m.describe()))
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), m.apply(text).splitlines(True),
                "a/driver/" + m.file, "b/driver/" + m.file, n=2))
        return 0

    start = time.monotonic()
    need32 = any(m.tests32 for m in mutants)
    kdir, checkpatch = prepare(args.kernel, need32)
    logs = os.path.join(WORK, "logs")
    os.makedirs(logs, exist_ok=True)
    jobs = min(args.jobs, max(1, len(mutants)))
    slots = [Slot(n, kdir, checkpatch) for n in range(jobs)]

    # Every slot starts from the unmutated driver; the first one's module
    # runs every program the mutants name.
    for slot in slots:
        why = slot.build(None, os.path.join(logs, "baseline.build.log"))
        if why:
            print("asc-mutate: the unmutated driver does not build cleanly: %s" % why,
                  file=sys.stderr)
            return 2
    if not args.no_baseline:
        tests = union(m.tests for m in mutants)
        tests32 = union(m.tests32 for m in mutants)
        print("baseline: the unmutated driver runs %s" %
              " ".join(tests + ["%s(m32)" % t for t in tests32]), flush=True)
        t0 = time.monotonic()
        rc, out = guest_run(slots[0].module, tests, tests32, args.kernel,
                            3 * args.timeout, os.path.join(logs, "baseline.run.log"))
        if rc:
            print("asc-mutate: the tests fail on the unmutated driver (%s); see %s" %
                  (summary(*failures(out)) or "status %d" % rc,
                   os.path.join(logs, "baseline.run.log")), file=sys.stderr)
            return 2
        print("baseline: passed in %s" % fmt_time(time.monotonic() - t0), flush=True)

    results = {}
    lock = threading.Lock()
    free = list(slots)
    stop = threading.Event()
    width = max(len(m.name) for m in mutants) if mutants else 0

    def one(m):
        if stop.is_set():
            return
        with lock:
            slot = free.pop()
        try:
            t0 = time.monotonic()
            why = slot.build(m, os.path.join(logs, m.name + ".build.log"))
            if why:
                verdict = ("invalid", why)
            else:
                rc, out = guest_run(slot.module, m.tests, m.tests32, args.kernel,
                                    args.timeout, os.path.join(logs, m.name + ".run.log"))
                verdict = classify(rc, out)
            secs = time.monotonic() - t0
        finally:
            with lock:
                free.append(slot)
        with lock:
            results[m.name] = verdict
            print("%-8s %-*s %5s  %s" % (verdict[0], width, m.name,
                                         "%ds" % secs, verdict[1]), flush=True)
            if verdict[0] in ("invalid", "error") and not args.keep_going:
                stop.set()

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for f in [pool.submit(one, m) for m in mutants]:
            f.result()

    caught = [m for m in mutants if results.get(m.name, ("",))[0] == "caught"]
    survived = [m for m in mutants if results.get(m.name, ("",))[0] == "survived"]
    bad = [m for m in mutants if results.get(m.name, ("",))[0] in ("invalid", "error")]
    skipped = [m for m in mutants if m.name not in results]
    total = len(caught) + len(survived)
    score = 100.0 * len(caught) / total if total else 0.0
    # The survivors and what did not run, then the score as the last line.
    print()
    for m in survived:
        print("survived: %s: %s" % (m.name, m.describe()))
    for m in bad:
        print("%s: %s: %s" % (results[m.name][0], m.name, results[m.name][1]))
    if skipped:
        print("not run (stopped at the first invalid mutant or error; -k goes on): %s"
              % " ".join(m.name for m in skipped))
    print("caught %d of %d (%.1f %%) in %s" % (len(caught), total, score,
                                               fmt_time(time.monotonic() - start)),
          flush=True)
    return 0 if total and score >= args.goal and not bad and not skipped else 1

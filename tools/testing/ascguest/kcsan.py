# SPDX-License-Identifier: GPL-2.0
"""asc-check-kcsan-guest: the KCSAN lane of `make check-all`, the part that
runs inside the guest: tools/testing/asc-vm --kernel kcsan -- tools/testing/asc-check-kcsan-guest

On the KCSAN kernel (two CPUs, the driver instrumented, the kernel not),
with the module loaded: the stress selftests (asc_event_stress, with
ASC_STRESS_PERCENT of their rounds, default 10: a round takes
milliseconds there), the copy-stall sweep and the other tests that hold
user copies up with userfaultfd (asc_event_stall, asc_event_atomic), the
tests where threads of several TPipes share one lock or look at each
other's waits (asc_event_launch, asc_event_deadlock, asc_event_wake),
the pool of the flag page, which userspace changes while the driver
reads it (asc_event_map_ids), then the soak test for ASC_KCSAN_SOAK_SECONDS (default 20).
ASC_KCSAN_SKIP_WATCH (default 20) sets how often KCSAN watches an access
(below).  The runner fails the run on any KCSAN report in the kernel log
("BUG: KCSAN: data-race in ...").

Three checks of the lane itself: KCSAN is enabled, the module under test
calls KCSAN's instrumentation (__tsan_* symbols; a module built without
it would pass clean and prove nothing), and none of those selftests
skips (a skip would hide the copy stalls from KCSAN).  KCSAN's counters
from debugfs are printed at the end.  Everything prints TAP; the exit
status is 1 if anything failed.
"""

import os
import re
import subprocess

from asccheck import tap as taps

from . import TOP, build
from .tap import Tap

STATS = "/sys/kernel/debug/kcsan"
SKIP_WATCH = "/sys/module/kcsan/parameters/skip_watch"
SELFTESTS = ["asc_event_stress", "asc_event_stall", "asc_event_atomic", "asc_event_launch",
             "asc_event_deadlock", "asc_event_wake", "asc_event_map_ids"]


def env(name, default):
    """The variable NAME, DEFAULT when unset or empty."""
    return os.environ.get(name) or default


def read(path):
    """The text of PATH, "" when it cannot be read."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def instrumented(ko):
    """Whether the module KO calls KCSAN's instrumentation."""
    if not ko:
        return False
    p = subprocess.run(["nm", "-u", ko], stdout=subprocess.PIPE, check=False)
    return any(" __tsan_" in line for line in p.stdout.decode(errors="replace").splitlines())


def no_skip(log):
    """Whether no result of the TAP LOG is a skip."""
    return not any(r.skipped for r in taps.read(log).results)


def run_selftests(tap):
    """The selftests of the lane, their output shown as it comes:
    (exit status, output)."""
    tap.out.flush()
    p = subprocess.Popen([os.path.join(TOP, "selftests", "run-tests")] + SELFTESTS,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         env=dict(os.environ, ASC_STRESS_PERCENT=env("ASC_STRESS_PERCENT", "10")))
    said = []
    for line in p.stdout:
        tap.out.write(line.decode(errors="replace"))
        tap.out.flush()
        said.append(line.decode(errors="replace"))
    return p.wait(), "".join(said)


def check(tap, text, ok):
    """One result line: TEXT, as OK says; OK."""
    tap.result(ok, text)
    return ok


def main(_args, tap=None):
    """The lane: its exit status."""
    tap = tap or Tap()
    ok = check(tap, "KCSAN is enabled (%s)" % STATS,
               re.search(r"^enabled: 1$", read(STATS), re.M) is not None)
    # KCSAN samples: it watches one access in every 1 to skip_watch (at
    # random, 500 as the kernel boots) for udelay_task microseconds (80),
    # and reports when another CPU accesses the same memory meanwhile.
    # Only the driver is instrumented, so the lane can afford to watch
    # often: with 20 a planted race (an ID's pool bit set after the
    # unlock) was reported in a run, with 500 it was not.
    try:
        with open(SKIP_WATCH, "w") as f:
            f.write(env("ASC_KCSAN_SKIP_WATCH", "20") + "\n")
    except OSError as e:
        tap.comment("%s: %s" % (SKIP_WATCH, e))
    ok = check(tap, "the module is built with KCSAN's instrumentation",
               instrumented(os.environ.get("ASC_EVENT_KO"))) and ok
    if not ok:
        return 1
    rc, log = run_selftests(tap)
    ok = rc == 0
    ok = check(tap, "no selftest of the KCSAN lane skipped", no_skip(log)) and ok
    tap.out.flush()
    soak = subprocess.run([build("selftests", "asc_event_soak"), "-s",
                           env("ASC_KCSAN_SOAK_SECONDS", "20")], stdin=subprocess.DEVNULL,
                          check=False)
    ok = soak.returncode == 0 and ok
    for line in read(STATS).splitlines():
        tap.write("# kcsan: " + line)
    return 0 if ok else 1

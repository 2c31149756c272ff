# SPDX-License-Identifier: GPL-2.0
"""The parts of asc-check-guest (cli.plan() picks them), each a function
of the Tap and the Plan that returns whether it passed.

    selftests    selftests/run-tests, all or the ones named
    abi32        the ABI tests as a 32-bit program: the compat path
    programs     the program linked through pkg-config, the vadd demo,
                 asc-bench --quick, libasc's core runtime tests
    examples     the ported kernels (examples.py); the long run all of
                 them, every site (unless --quick-examples)
    python       the Python package's tests (pytap.py); the long run also
                 its torch tests (unless --no-torch)
    libasc       libasc's device tests and the demo
    fastpath     the fast path's test
    ascctl       ascctl.py's and traces.py's tests
    ascctl-long  the launches against the rule, the other tracers
    tail         the 32-bit selftests, soak, fuzzer, fault injection,
                 module reload cycles (ASC_SOAK_SECONDS and
                 ASC_FUZZ_IOCTLS size them)
"""

import os

from . import TOP, ascctl, bench, build, examples, pytap, traces
from .steps import Failed, inherit, run_tap

RUN_TESTS = os.path.join(TOP, "selftests", "run-tests")
SKIP = 4


def lib_test(name):
    """The path of libasc's device test NAME."""
    return build("lib", "tests", name)


def program(s, cmd):
    """A program that prints no TAP of its own: it must succeed."""
    rc, out = s.run(cmd)
    s.say(out)
    if rc != 0:
        raise Failed("exit status %d" % rc)


def all_ok(tap, cmds):
    """Each of CMDS with the guest's stdout, in turn: whether all passed."""
    ok = True
    for cmd in cmds:
        ok = inherit(tap, cmd) == 0 and ok
    return ok


def selftests(tap, plan):
    """The selftests, all or those of the plan."""
    return inherit(tap, [RUN_TESTS] + plan.selftests) == 0


def abi32(tap, _plan):
    """The ABI tests as a 32-bit program."""
    tap.write("# selftests: asc_event: asc_event_abi, 32-bit")
    return inherit(tap, [build("selftests32", "asc_event_abi")]) == 0


def vadd(tap):
    """The vadd demo, one result."""
    return run_tap(tap, "asc-vadd", program, [build("tools", "asc-vadd")])


def programs(tap, _plan):
    """The programs part."""
    ok = inherit(tap, [build("lib", "pkgconfig-pingpong")]) == 0
    ok = vadd(tap) and ok
    ok = run_tap(tap, "asc-bench --quick: every figure measured, every goal row printed;"
                 " -f picks figures", bench.smoke) and ok
    ok = all_ok(tap, [[lib_test(t)] for t in ("core-run", "launch-run", "core-cancel",
                                               "gm-sync-run", "fastpath-run", "que-run",
                                               "findings-run", "memcheck-run",
                                               "ops-run")]) and ok
    return ok


def ported(_tap, plan):
    """The examples part: the ported kernels."""
    return examples.main(["--all"] if plan.all_examples else []) == 0


def python(_tap, plan):
    """The Python package's tests."""
    ok = pytap.main([]) == 0
    if plan.torch:
        # torch's import alone takes a minute under TCG: only the long run
        # passes torch tensors (python3-torch comes with --all's install).
        ok = pytap.main([], paths=["tests/test_torch.py"], ASC_TEST_TORCH="1") == 0 and ok
    return ok


def libasc(tap, _plan):
    """libasc's device tests and the demo."""
    ok = all_ok(tap, [[lib_test(t)] for t in ("core-run", "launch-run", "core-cancel",
                                               "fastpath-run")])
    return vadd(tap) and ok


def fastpath(tap, _plan):
    """The fast path's test."""
    return all_ok(tap, [[lib_test("fastpath-run")]])


ASCCTL = [
    ("ascctl: status, dump, unload refused while in use, unload, load", ascctl.cycle),
    ("ascctl trace of asc-vadd: JSON tracks and order, SVG", traces.vadd),
    ("ascctl trace of a mix launch: a group per core, cross-core arrows", traces.launch),
    ("ascctl trace: exit status, no instance left on failure or SIGINT", traces.cleanup),
    ("asc-fetch-hazard: EBUSY, EDEADLK and report; --alloc clean", ascctl.fetch_hazard),
    ("asc-queue-hazard: EADDRINUSE names the queue; unchecked a double set; --alloc clean",
     ascctl.queue_hazard),
    ("ascctl trace of threads with odd names: JSON and SVG parse, names kept",
     traces.odd_names),
]
ASCCTL_LONG = [
    ("ascctl trace -i of modes 0 and 1 and SyncAll rounds: arrows by the rule",
     traces.launch_rule),
    ("ascctl, trace-cmd and perf see every set and wait", traces.tracers),
]


def tests(tap, table):
    """The tests of TABLE, (name, function) each: whether all passed."""
    ok = True
    for name, test in table:
        ok = run_tap(tap, name, test) and ok
    return ok


def tail(tap, _plan):
    """The long tail."""
    sel = build("selftests")
    ok = all_ok(tap, [[RUN_TESTS, "-o", build("selftests32")],
                      [os.path.join(sel, "asc_event_soak"), "-s",
                       os.environ.get("ASC_SOAK_SECONDS") or "10"],
                      [os.path.join(sel, "asc_event_fuzz"), "-n",
                       os.environ.get("ASC_FUZZ_IOCTLS") or "1000000"]])
    ok = inherit(tap, [os.path.join(sel, "asc_event_faults")]) in (0, SKIP) and ok
    return inherit(tap, [os.path.join(sel, "asc_event_reload")]) == 0 and ok


PARTS = {
    "selftests": selftests,
    "abi32": abi32,
    "programs": programs,
    "examples": ported,
    "python": python,
    "libasc": libasc,
    "fastpath": fastpath,
    "ascctl": lambda tap, _plan: tests(tap, ASCCTL),
    "ascctl-long": lambda tap, _plan: tests(tap, ASCCTL_LONG),
    "tail": tail,
}

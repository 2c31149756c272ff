# SPDX-License-Identifier: GPL-2.0
"""asc-check-guest's command line: which parts of the guest's check run.

    asc-check-guest [--long | --long-head | --long-tail] [--no-torch] [--quick-examples]
                    [--tools | --selftests | --programs | --examples | --python |
                     --ascctl | --libasc | --fastpath]... | [SELFTEST...]

plan() turns the arguments into the parts to run, in their order (the
parts are in parts.py; options of the tools part may be given together,
their parts then run in the order of the options); main() runs them.
After a long option, --no-torch leaves out the Python package's torch
tests and --quick-examples runs the ported kernels as the quick run does:
check-all trims so the long runs of the kernels where those userspace
tests find nothing new (Documentation/reliability.rst).
The exit status is 1 if anything failed, 2 for bad usage.
"""

import sys

from .tap import Tap

USAGE = ("usage: asc-check-guest [--long | --long-head | --long-tail] [--no-torch]"
         " [--quick-examples] [--tools | --selftests | --programs | --examples | --python |"
         " --ascctl | --libasc | --fastpath]... | [SELFTEST...]")
LONG = {"--long": (True, True), "--long-head": (True, False), "--long-tail": (False, True)}
# The options that trim a long run: the attribute of Plan each clears.
TRIMS = {"--no-torch": "torch", "--quick-examples": "all_examples"}
# Each option of the tools part: the parts it runs, in order.
TOOLS = {
    "--tools": ("programs", "examples", "python", "ascctl"),
    "--selftests": ("selftests",),
    "--programs": ("programs",),
    "--examples": ("examples",),
    "--python": ("python",),
    "--ascctl": ("ascctl",),
    "--libasc": ("libasc",),
    "--fastpath": ("fastpath",),
}
# The parts of libasc's device tests alone, which only their options run.
DEVICE_TESTS = ("libasc", "fastpath")


class Usage(Exception):
    """Arguments asc-check-guest does not take."""


class Plan:
    """What one run does: LONG (the long variant of each part), PARTS
    (names of parts.py's parts, in order) and SELFTESTS (the programs
    named, none for all); TORCH and ALL_EXAMPLES, whether the Python
    part runs the torch tests and the examples part every example's
    every site (both LONG unless trimmed)."""

    def __init__(self, long, parts, selftests):
        self.long = long
        self.parts = parts
        self.selftests = selftests
        self.torch = long
        self.all_examples = long


def plan(args):
    """The Plan of the command line ARGS; Usage for bad ones."""
    args = list(args)
    head, tail, long = True, False, False
    if args and args[0] in LONG:
        head, tail = LONG[args.pop(0)]
        long = True
    trims = []
    while long and args and args[0] in TRIMS:
        trims.append(TRIMS[args.pop(0)])
    if any(a in TRIMS for a in args):
        raise Usage(USAGE)
    tools = TOOLS["--tools"]
    only_tools = bool(args) and args[0] in TOOLS
    if only_tools:
        tools = []
        for arg in args:
            if arg not in TOOLS:
                raise Usage(USAGE)
            tools += [t for t in TOOLS[arg] if t not in tools]
        args = []
    if not head:
        tools = [t for t in tools if t in DEVICE_TESTS]
    parts = []
    if head and not only_tools:
        parts.append("selftests")
        if not long and (not args or "asc_event_abi" in args):
            parts.append("abi32")
    for name in tools:
        if name in DEVICE_TESTS:
            if only_tools:
                parts.append(name)
        elif not args:
            parts.append(name)
            if name == "ascctl" and long:
                parts.append("ascctl-long")
    if tail and not only_tools:
        parts.append("tail")
    p = Plan(long, parts, args)
    for name in trims:
        setattr(p, name, False)
    return p


def main(argv):
    """asc-check-guest: the exit status."""
    try:
        p = plan(argv)
    except Usage as e:
        print(e, file=sys.stderr)
        return 2
    from . import parts  # pylint: disable=import-outside-toplevel  # only for a run
    tap = Tap(fixed=1)
    ok = True
    for name in p.parts:
        ok = parts.PARTS[name](tap, p) and ok
    return 0 if ok else 1

# SPDX-License-Identifier: GPL-2.0
"""The guest side of `make check`: what runs inside the test guest.

tools/testing/asc-check-guest, asc-check-examples, asc-check-python,
asc-check-kcsan-guest and asc-check-install-guest are thin launchers of
this package; the guest pays one Python start per launcher, not one per
step.  Modules, one job each:

    tap         the TAP the guest side writes (it reads with asccheck.tap)
    steps       one test's commands, bounded runs, exit statuses, verdict
    cli         asc-check-guest's command line: which parts run, in order
    parts       those parts: selftests, programs, libasc, the long tail
    bench       the smoke test of asc-bench --quick
    ascctl      ascctl's status and dump, unload and load
    traces      ascctl trace of the demo, a launch, odd names, clean-up
    examples    the ported kernels, and each with a sync call deleted
    pytap       the Python package's tests (pytest) as TAP
    kcsan       the data-race tests of the KCSAN lane
    install     the guest's half of the install tests

Standard library only.  The host tests are in tools/testing/tests/.
"""

import os

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# The host's Python, as the guest sees it after the chroot.
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3"


def scratch():
    """The writable directory of the run: ASC_VM_SCRATCH in the guest."""
    return os.environ.get("ASC_VM_SCRATCH") or os.environ.get("TMPDIR") or "/tmp"


def build(*parts):
    """A path under the tree's build/."""
    return os.path.join(TOP, "build", *parts)

# SPDX-License-Identifier: GPL-2.0
"""asc-check-python [PYTEST-ARGS...]: the tests of the Python package asc
(lib/python/tests) with Debian's pytest, as TAP.

One "ok N" or "not ok N" line per test (skipped ones "# SKIP"), pytest's
own output as comments.  It uses the package of this tree and build/lib's
libasc; writes nothing to the tree (no byte code, no pytest cache).  The
exit status is pytest's.  `make check` runs it in a guest of its own
(tools/testing/asc-check-guest --python).
"""

import os
import re
import subprocess

from . import PYTHON, TOP, build
from .steps import status
from .tap import Tap

# A test ID may hold spaces (its parameters): the result is the last
# result word of the line.
LINE = re.compile(r"^(tests/[^ ]*::.*) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: |$)")


def outcomes(text):
    """The tests of pytest -v's output TEXT: (name, result) each."""
    found = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            found.append((m.group(1), m.group(2)))
    return found


def report(tap, text):
    """pytest's output TEXT on TAP: comments, one result per test, the plan."""
    tap.comment(text)
    for name, res in outcomes(text):
        if res == "SKIPPED":
            tap.result(True, "python: %s # SKIP" % name)
        else:
            tap.result(res in ("PASSED", "XFAIL"), "python: " + name)
    tap.plan()


def main(args, tap=None, paths=("tests",), **environ):
    """asc-check-python ARGS: the exit status, pytest's.  PATHS are the
    tests pytest runs (relative to lib/python), ENVIRON more variables of
    their environment."""
    pkg = os.path.join(TOP, "lib", "python")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=pkg,
               ASC_LIBASC=build("lib", "libasc.so.1"), **environ)
    p = subprocess.run([PYTHON, "-m", "pytest", "-v", "-rA", "-p", "no:cacheprovider"]
                       + list(args) + list(paths), cwd=pkg, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    report(tap or Tap(), p.stdout.decode(errors="replace"))
    return status(p.returncode)

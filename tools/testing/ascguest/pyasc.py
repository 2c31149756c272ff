# SPDX-License-Identifier: GPL-2.0
"""asc-check-pyasc [--all] PYASC: pyasc's own kernel files, unmodified, on
the Python package asc (`make check-pyasc PYASC=...`).

PYASC is a pyasc checkout (its python/ directory holds tutorials/ and
test/); nothing of it is copied here or written there.
tools/testing/pyasc-kernels.txt lists every kernel file of pyasc (its
tutorials, python/test/kernels/ and python/test/generalization/) with
whether it runs here.  On the host this runs itself again in a guest
(tools/testing/asc-vm), from the checkout.  There each file marked to
run is run with the module loaded and lib/python on the path, from its
own directory as pyasc's documentation says: a test_*.py with pytest
(pyasc's conftest.py beside it gives the backend, Backend.Model), any
other with python3.  It must pass; every other file is reported skipped
with the list's reason.  A kernel file of the checkout the list does not
name, or a name the checkout lacks, fails.  With --all every file is
run, and each result that differs from the list fails.  Prints TAP; the
exit status is 1 if anything failed.
"""

import os
import re
import subprocess
import sys

from . import PYTHON, TOP, build
from .tap import Tap

LIST = os.path.join(TOP, "tools", "testing", "pyasc-kernels.txt")
KERNEL_DIRS = ("python/tutorials", "python/test/kernels", "python/test/generalization")
USAGE = "usage: asc-check-pyasc [--all] PYASC   (a pyasc checkout: make check-pyasc PYASC=DIR)"
# A file that imports torch takes over a minute under TCG.
GUEST_TIMEOUT, GUEST_TIMEOUT_ALL, FILE_TIMEOUT = 1200, 4800, 900
ERROR_LINE = re.compile(r"^[A-Za-z_.]*(Error|Exception)(:|$)")


def listed(text):
    """The entries of pyasc-kernels.txt TEXT: (file, verdict, reason) each."""
    found = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        parts = line.split(None, 2)
        found.append((parts[0], parts[1] if len(parts) > 1 else "",
                      parts[2] if len(parts) > 2 else ""))
    return found


def kernel_files(pyasc):
    """The kernel files of the checkout PYASC, relative to it, sorted."""
    found = []
    for d in KERNEL_DIRS:
        for root, _dirs, files in os.walk(os.path.join(pyasc, d)):
            found += [os.path.relpath(os.path.join(root, f), pyasc) for f in files
                      if f.endswith(".py") and f != "conftest.py"]
    return sorted(found)


def first_error(out):
    """pytest's first "E   ..." line of OUT, else the traceback's last line."""
    lines = out.splitlines()
    for line in lines:
        if line.startswith("E  "):
            return line[1:].strip()
    errors = [line for line in lines if ERROR_LINE.match(line)]
    return errors[-1] if errors else ""


def command(path):
    """How pyasc's documentation runs the file PATH."""
    name = os.path.basename(path)
    if name.startswith("test_"):
        return [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", name]
    return [PYTHON, name]


def run(pyasc, path):
    """Run pyasc's file PATH: (passed, output)."""
    env = dict(os.environ, PYTHONPATH=os.path.join(TOP, "lib", "python"),
               PYTHONDONTWRITEBYTECODE="1", ASC_LIBASC=build("lib", "libasc.so.1"))
    try:
        p = subprocess.run(command(path), cwd=os.path.join(pyasc, os.path.dirname(path)),
                           env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=FILE_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
        return False, out + "timed out after %d s\n" % FILE_TIMEOUT
    return p.returncode == 0, p.stdout.decode(errors="replace")


def check(tap, pyasc, every, entries):
    """The guest's part on TAP: the count of files that ran."""
    names = [e[0] for e in entries]
    files = kernel_files(pyasc)
    for f in files:
        if f not in names:
            tap.result(False, "- pyasc: %s is not in pyasc-kernels.txt" % f)
    for f in names:
        if f not in files:
            tap.result(False, "- pyasc: %s is not in the checkout" % f)
    ran = 0
    for path, verdict, reason in entries:
        if verdict != "run" and not every:
            tap.result(True, "- pyasc: %s # SKIP %s" % (path, reason))
            continue
        ok, out = run(pyasc, path)
        ran += ok
        if verdict == "run":
            if not ok:
                tap.comment("\n".join(out.splitlines()[-25:]))
            tap.result(ok, "- pyasc: %s runs unmodified" % path)
        elif ok:
            tap.result(False, "- pyasc: %s, listed as failing (%s), runs" % (path, reason))
        else:
            tap.result(True, "- pyasc: %s fails as listed: %s"
                       % (path, first_error(out) or "see the list"))
    tap.comment("%d of %d of pyasc's kernel files ran unmodified%s"
                % (ran, len(entries), " (every file tried)" if every else ""))
    return ran


def main(args):
    """asc-check-pyasc ARGS: the exit status."""
    args = list(args)
    every = bool(args) and args[0] == "--all"
    args = args[1:] if every else args
    guest = bool(args) and args[0] == "--guest"
    args = args[1:] if guest else args
    if len(args) != 1 or not args[0]:
        sys.stderr.write(USAGE + "\n")
        return 2
    pyasc = os.path.realpath(args[0])
    if not all(os.path.isdir(os.path.join(pyasc, d)) for d in KERNEL_DIRS[:2]):
        sys.stderr.write("asc-check-pyasc: %s is no pyasc checkout (no %s)\n"
                         % (args[0], ", ".join(KERNEL_DIRS[:2])))
        return 2
    if not guest:
        # The runner keeps the working directory visible in the guest.
        os.chdir(pyasc)
        vm = [os.path.join(TOP, "tools", "testing", "asc-vm"), "--timeout",
              str(GUEST_TIMEOUT_ALL if every else GUEST_TIMEOUT), "--",
              os.path.join(TOP, "tools", "testing", "asc-check-pyasc")]
        return subprocess.call(vm + (["--all"] if every else []) + ["--guest", pyasc])
    with open(LIST) as f:
        entries = listed(f.read())
    tap = Tap()
    check(tap, pyasc, every, entries)
    tap.plan()
    return 1 if tap.failed else 0

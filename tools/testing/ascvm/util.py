# SPDX-License-Identifier: GPL-2.0
"""Small helpers shared by the runner: messages, errors, locks, files."""

import contextlib
import fcntl
import os
import subprocess
import sys
import tempfile

PROG = "asc-vm"

# The top of the source tree (tools/testing/ascvm/ is three levels down) and the
# runner's cache and run directories.
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))
VMDIR = os.path.join(TOP, "build", "vm")

EXIT_USAGE = 2
EXIT_TIMEOUT = 124
EXIT_RUNNER = 125


class UsageError(Exception):
    """Bad command line: the message and the usage are printed, exit 2."""


class RunnerError(Exception):
    """The runner or the guest failed (not the command): exit 125."""


def msg(text):
    """Print "asc-vm: TEXT" on stderr."""
    sys.stderr.write("%s: %s\n" % (PROG, text))
    sys.stderr.flush()


def rel(path):
    """PATH relative to the top of the tree when it is inside it."""
    if path.startswith(TOP + os.sep):
        return path[len(TOP) + 1:]
    return path


def output(cmd, **kwargs):
    """stdout of CMD (a list) as text, or None when it fails to run or exits
    non-zero.  Its stderr is dropped unless the caller says otherwise."""
    kwargs.setdefault("stderr", subprocess.DEVNULL)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                              check=False, **kwargs)
    except OSError:
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout


def pkg_versions(packages):
    """The versions of the Debian PACKAGES that dpkg knows, as a dict; one
    dpkg-query for all."""
    proc = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Version}\n",
                           "--"] + list(packages), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=False)
    versions = {}
    for line in proc.stdout.splitlines():
        name, _, version = line.partition(" ")
        versions[name] = version
    return versions


def pkg_owning(path, guess=None):
    """The Debian package that installed PATH, or None.  A package GUESS
    is asked first: dpkg-query -S reads every package's file list."""
    if guess:
        files = output(["dpkg-query", "-L", guess])
        if files and path in files.splitlines():
            return guess
    out = output(["dpkg-query", "-S", path])
    if not out:
        return None
    return out.splitlines()[0].split(":", 1)[0] or None


def read_text(path, default=None):
    """The content of the file PATH, or DEFAULT when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def atomic_write(path, text):
    """Replace the file PATH by TEXT in one rename: a reader sees the old
    content or the new one, never a part."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                               prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.rename(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def locked(path, what):
    """Hold an exclusive flock(2) on the file PATH for the with-block,
    saying that we wait for WHAT when another process holds it.  The
    directory of PATH is made when it does not exist yet."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            msg("waiting for another run building %s" % what)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def file_stamp(path):
    """Size, modification time and inode of PATH: what a cache built from
    it records to notice a new file."""
    st = os.stat(path)
    return "%d %d %d" % (st.st_size, int(st.st_mtime), st.st_ino)

# SPDX-License-Identifier: GPL-2.0
"""The run directory: build/vm/run.XXXXXX, one per run, shared with the
guest read-write over 9p and mounted there at its host path.

The runner writes "config" (shell variables for tools/testing/asc-vm-init),
"binds" (host paths under /tmp or /run to keep visible), "cmd.sh" (the
command, its environment and working directory) and the FIFOs of the
command's output; the guest writes "dmesg", "kmemleak" and "result"; the
command gets "scratch/", writable by everyone.

A run holds an flock on RUN/lock while it lives: a later run removes the
directories of runs that were killed outright, whose lock nobody holds.  A
kept directory (ASC_VM_KEEP=1) has no lock file and stays.
"""

import contextlib
import fcntl
import glob
import os
import re
import shlex
import shutil
import tempfile

from .util import VMDIR, msg

STANDARD_PATH = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin",
                 "/sbin", "/bin")
# The caller's variables that pass into the guest: test settings.
PASSED_ON = re.compile(r"^(ASC_|KSFT_)[A-Za-z0-9_]*$")
NOT_PASSED_ON = re.compile(r"^(ASC_VM_.*|ASC_EVENT_KO)$")


def reap_stale():
    """Remove the run directories of runners that died without cleaning
    up: their lock file is there and nobody holds it."""
    for lock in glob.glob(os.path.join(VMDIR, "run.*", "lock")):
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        shutil.rmtree(os.path.dirname(lock), ignore_errors=True)
        os.close(fd)


def _quote_lines(pairs):
    return "".join("%s=%s\n" % (k, shlex.quote(v)) for k, v in pairs)


def guest_path(path):
    """The guest's PATH: the caller's, plus the standard directories it
    lacks."""
    parts = path.split(":") if path else []
    return ":".join(parts + [p for p in STANDARD_PATH if p not in parts])


def guest_environment(environ, scratch, ko, module_args):
    """The environment the command gets in the guest, as (name, value)
    pairs: a clean root login's, the runner's variables and the caller's
    test settings (ASC_* and KSFT_*)."""
    env = [("PATH", guest_path(environ.get("PATH", ""))), ("HOME", "/tmp"),
           ("TMPDIR", "/tmp"), ("USER", "root"), ("LOGNAME", "root"),
           ("SHELL", "/bin/sh"), ("LANG", "C.UTF-8"), ("TERM", "dumb"),
           ("ASC_VM", "1"), ("ASC_VM_SCRATCH", scratch),
           ("ASC_VM_MODULE_ARGS", module_args)]
    if ko:
        env.append(("ASC_EVENT_KO", ko))
    for name in sorted(environ):
        if PASSED_ON.match(name) and not NOT_PASSED_ON.match(name):
            env.append((name, environ[name]))
    return env


class RunDir:
    """One run's directory, created locked; close() removes it or keeps
    it."""

    def __init__(self):
        os.makedirs(VMDIR, exist_ok=True)
        reap_stale()
        self.path = tempfile.mkdtemp(dir=VMDIR, prefix="run.")
        # Lock a file of another name and rename it: a reaper never sees
        # a "lock" that is not held yet.
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".lock.")
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(tmp, self.file("lock"))
        self._lock_fd = fd
        self.scratch = self.file("scratch")
        os.mkdir(self.scratch)
        os.chmod(self.scratch, 0o1777)
        os.chmod(self.path, 0o755)

    def file(self, name):
        """The path of NAME in the run directory."""
        return os.path.join(self.path, name)

    def write(self, name, text):
        """Write the file NAME."""
        with open(self.file(name), "w") as f:
            f.write(text)

    def write_config(self, ko, ko_name, module_args):
        """The variables tools/testing/asc-vm-init sources."""
        self.write("config", _quote_lines([
            ("ASC_VM_RUN", self.path), ("ASC_VM_KO", ko or ""),
            ("ASC_VM_KO_NAME", ko_name or ""),
            ("ASC_VM_MODULE_ARGS", module_args)]))

    def write_binds(self, paths):
        """Host paths under /tmp and /run are hidden by the guest's tmpfs
        there; keep the ones of PATHS visible (read-only)."""
        binds = [p for p in paths if p and re.match(r"^/(tmp|run)(/|$)", p)]
        self.write("binds", "".join(p + "\n" for p in binds))

    def write_command(self, env, cwd, argv):
        """cmd.sh: export ENV, cd to CWD, exec ARGV."""
        lines = ["export %s\n" % shlex.quote("%s=%s" % kv) for kv in env]
        lines.append("cd %s || exit 125\n" % shlex.quote(cwd))
        lines.append("exec %s\n" % " ".join(shlex.quote(a) for a in argv))
        self.write("cmd.sh", "".join(lines))

    def make_fifos(self, names):
        """NAME.in and NAME.out for each of NAMES: a QEMU pipe chardev."""
        for name in names:
            os.mkfifo(self.file(name + ".in"))
            os.mkfifo(self.file(name + ".out"))

    def copy_scratch(self, dest):
        """Copy the files the command left in scratch/ to DEST (whose own
        mode stays as it is, not scratch/'s 1777)."""
        os.makedirs(dest, exist_ok=True)
        for name in os.listdir(self.scratch):
            src = os.path.join(self.scratch, name)
            if os.path.isdir(src) and not os.path.islink(src):
                shutil.copytree(src, os.path.join(dest, name), symlinks=True,
                                dirs_exist_ok=True)
            else:
                shutil.copy2(src, os.path.join(dest, name),
                             follow_symlinks=False)

    def close(self, keep=False):
        """Remove the directory, or with KEEP leave it, unlocked, for a
        look."""
        if keep:
            with contextlib.suppress(OSError):
                os.unlink(self.file("lock"))
            msg("kept " + self.path)
        else:
            shutil.rmtree(self.path, ignore_errors=True)
        os.close(self._lock_fd)

# SPDX-License-Identifier: GPL-2.0
"""The steps of one test and its verdict.

A test is a function of a Steps: it runs commands through it (each shown
as "$ COMMAND" with its output), and a step that fails raises Failed,
which ends the test.  run_tap() prints what the test said as comments,
then one result line: "ok 1 NAME" or "not ok 1 NAME".  Any other
exception of the test (a file missing, a bug here) fails it too, its
traceback shown: a test never passes by accident.

Every command runs with /dev/null as stdin and its output in a temporary
file, not a pipe: a command killed by its bound leaves no reader waiting
on children that still hold the pipe.  Exit statuses are the shell's: a
command killed by signal N has status 128 + N, and one killed by its
bound has 137.
"""

import contextlib
import os
import runpy
import shlex
import subprocess
import sys
import tempfile
import time
import traceback

from .tap import lines

KILLED = 128 + 9


class Failed(Exception):
    """A step failed: str() says which, shown as "FAIL: ..."."""


def status(returncode):
    """A Popen return code as the shell's exit status."""
    return 128 - returncode if returncode < 0 else returncode


def shown(cmd):
    """COMMAND as the "$ " line shows it."""
    return "$ " + shlex.join(str(c) for c in cmd)


class Steps:
    """What one test ran and said, in order (TEXT, a list of lines)."""

    def __init__(self):
        self.text = []

    def say(self, text):
        """Lines of TEXT into what the test says."""
        self.text.extend(lines(text))

    def wait(self, proc, timeout, what):
        """The exit status of PROC; killed, and 137, when it still runs
        after TIMEOUT seconds (None: no bound), saying so as WHAT."""
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            self.say("FAIL: %s: still running, killed" % what)
            return KILLED
        return status(proc.returncode)

    def run(self, cmd, timeout=None, stdout=None, **kwargs):
        """Run CMD, killed after TIMEOUT seconds; its exit status and
        output (stdout and stderr, or stderr alone when STDOUT, an open
        file, takes its stdout)."""
        with tempfile.TemporaryFile() as f:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                    stdout=stdout or f, stderr=f, **kwargs)
            rc = self.wait(proc, timeout, " ".join(str(c) for c in cmd))
            f.seek(0)
            return rc, f.read().decode(errors="replace")

    def step(self, what, cmd, timeout=None, **kwargs):
        """Show CMD and run it; WHAT failed unless it succeeds.  Its
        output."""
        self.say(shown(cmd))
        rc, out = self.run(cmd, timeout, **kwargs)
        self.say(out)
        if rc != 0:
            raise Failed(what)
        return out

    def exits(self, want, cmd, timeout=None):
        """Show CMD, run it and its output; it must exit with WANT.  Its
        output."""
        self.say(shown(cmd))
        rc, out = self.run(cmd, timeout)
        self.say(out)
        if rc != want:
            raise Failed("exit status %d, expected %d" % (rc, want))
        return out

    def check(self, what, ok):
        """WHAT failed unless OK."""
        if not ok:
            raise Failed(what)

    def until(self, what, probe, tries, delay=0.1):
        """Call PROBE until it returns true, at most TRIES times DELAY
        seconds apart; WHAT failed if it never does."""
        for _ in range(tries):
            if probe():
                return
            time.sleep(delay)
        raise Failed(what)

    @contextlib.contextmanager
    def background(self, cmd):
        """CMD started in the background for the block, its output in a
        temporary file: yields its Popen; killed (SIGTERM) after the
        block if it still runs, and its output said then."""
        with tempfile.TemporaryFile() as f:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=f, stderr=f)
            try:
                yield proc
            finally:
                if proc.poll() is None:
                    proc.terminate()
                    self.wait(proc, 10, " ".join(str(c) for c in cmd))
                f.seek(0)
                self.say(f.read().decode(errors="replace"))

    def script(self, what, path, *args):
        """The Python program PATH run with ARGS in this process, as
        step() runs a command: a Python start costs a TCG guest most of
        a second.  Its output (fds 1 and 2, its children's included)."""
        self.say(shown([os.path.basename(sys.executable), path] + list(args)))
        rc, out = in_process(path, list(args))
        self.say(out)
        if rc != 0:
            raise Failed(what)
        return out


def exit_code(code):
    """The exit status of SystemExit(CODE), as the interpreter makes it;
    a message (not an int) is printed to stderr, as it prints it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xff
    print(code, file=sys.stderr)
    return 1


def in_process(path, args):
    """Run the Python program PATH with ARGS here, as __main__: its exit
    status and its output, fds 1 and 2 caught in a file.  sys.argv,
    sys.path and the working directory are put back after it."""
    saved = (sys.argv, list(sys.path), os.getcwd())
    sys.stdout.flush()
    sys.stderr.flush()
    fds = (os.dup(1), os.dup(2))
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            sys.argv = [path] + args
            sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            runpy.run_path(path, run_name="__main__")
            rc = 0
        except SystemExit as e:
            rc = exit_code(e.code)
        except Exception:  # pylint: disable=broad-except  # its failure, shown
            traceback.print_exc()
            rc = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(fds[0], 1)
            os.dup2(fds[1], 2)
            os.close(fds[0])
            os.close(fds[1])
            sys.argv, sys.path[:] = saved[0], saved[1]
            os.chdir(saved[2])
        f.seek(0)
        return rc, f.read().decode(errors="replace")


def run_tap(tap, name, test, *args):
    """Run TEST(steps, *ARGS) as the test NAME: what it said as comments,
    then its result line on TAP.  Whether it passed."""
    steps = Steps()
    try:
        test(steps, *args)
        ok = True
    except Failed as e:
        steps.say("FAIL: %s" % e)
        ok = False
    except Exception:  # pylint: disable=broad-except  # the test's failure
        steps.say(traceback.format_exc())
        ok = False
    tap.comment("\n".join(steps.text))
    tap.result(ok, name)
    return ok


def inherit(tap, cmd, **kwargs):
    """Run CMD with the guest's stdout and stderr (it prints TAP of its
    own), after what TAP printed so far; its exit status."""
    tap.out.flush()
    sys.stderr.flush()
    return status(subprocess.run(cmd, stdin=subprocess.DEVNULL, check=False,
                                 **kwargs).returncode)

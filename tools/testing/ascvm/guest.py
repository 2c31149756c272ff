# SPDX-License-Identifier: GPL-2.0
"""Running QEMU: the command's output forwarded as it comes, a wall-clock
limit, and QEMU ended whatever way the runner ends."""

import contextlib
import os
import select
import signal
import subprocess
import time

# After the limit QEMU gets SIGTERM, and SIGKILL this much later.
KILL_AFTER = 10


class Interrupted(Exception):
    """The runner got SIGINT, SIGTERM or SIGHUP; STATUS is the exit status
    a shell gives for it (128 + the signal)."""

    def __init__(self, signum):
        super().__init__("signal %d" % signum)
        self.status = 128 + signum


def _raise_interrupted(signum, frame):
    del frame
    raise Interrupted(signum)


def catch_signals():
    """Turn SIGINT, SIGTERM and SIGHUP into Interrupted, so that the run's
    clean-up runs."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _raise_interrupted)


def _write_all(fd, data):
    """Write DATA to FD; output nobody reads any more is dropped."""
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass


class Forwarder:
    """Copies what QEMU writes into FIFOs to file descriptors.

    Each FIFO is opened read-write and non-blocking: the open does not wait
    for QEMU, and no read sees an end of file while QEMU is still to open
    it; after QEMU exits, drain() copies what is left."""

    def __init__(self, routes):
        self._routes = {}
        self._poll = select.poll()
        for fifo, dest in routes:
            fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
            self._routes[fd] = dest
            self._poll.register(fd, select.POLLIN)

    def _copy(self, fd):
        """Copy what FD holds now; False when it held nothing."""
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return False
        if not data:
            return False
        _write_all(self._routes[fd], data)
        return True

    def watch(self, fd):
        """Let pump() return as soon as FD is readable too."""
        self._poll.register(fd, select.POLLIN)

    def pump(self, timeout):
        """Copy what arrives within TIMEOUT seconds."""
        for fd, _ in self._poll.poll(int(timeout * 1000)):
            if fd in self._routes:
                self._copy(fd)

    def drain(self):
        """Copy everything left in the FIFOs."""
        for fd in self._routes:
            while self._copy(fd):
                pass

    def close(self):
        """Close the FIFOs."""
        for fd in self._routes:
            os.close(fd)
        self._routes = {}


def _status(returncode):
    """A Popen return code as a shell reports it."""
    return 128 - returncode if returncode < 0 else returncode


def run_qemu(cmd, log, forwarder, limit):
    """Run CMD (QEMU) with its own output into the file LOG, forwarding
    the guest's output until it exits.  After LIMIT seconds it is stopped
    and the status is 124, as timeout(1) gives; else QEMU's exit status.
    QEMU does not outlive this call."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)
    pidfd = None
    try:
        # Readable when QEMU exits: the loop ends without waiting a tick.
        with contextlib.suppress(OSError, AttributeError):
            pidfd = os.pidfd_open(proc.pid)
            forwarder.watch(pidfd)
        deadline = time.monotonic() + limit
        timed_out = False
        while proc.poll() is None:
            now = time.monotonic()
            if now >= deadline:
                if not timed_out:
                    timed_out = True
                    proc.terminate()
                    deadline = now + KILL_AFTER
                else:
                    proc.kill()
                    deadline = now + 3600
            forwarder.pump(min(0.2, max(deadline - now, 0.01)))
        forwarder.drain()
        return 124 if timed_out else _status(proc.returncode)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if pidfd is not None:
            os.close(pidfd)

# SPDX-License-Identifier: LGPL-2.1-or-later
"""Exceptions of the asc package.

Every error libasc or the device reports is an :class:`AscError`, an
``OSError`` whose ``errno`` is the library's and whose ``report`` is the
core runtime's report (the detector's findings or the call that failed),
or ``None``.  The subclass tells the usual cases apart by errno.
"""

from __future__ import annotations

import errno as _errno
import os
from typing import Dict, Optional, Type


class AscError(OSError):
    """An error of libasc, the core runtime or the device."""

    def __init__(self, err: int, what: str, report: Optional[str] = None) -> None:
        message = f"{what}: {os.strerror(err)}"
        if report:
            message += "\n" + report.rstrip("\n")
        super().__init__(err, message)
        self.report = report
        self.what = what

    def __str__(self) -> str:
        return self.strerror


class MissingSyncError(AscError):
    """ENOLCK: accesses of two pipes no set/wait orders, or a set never waited for."""


class DoubleSetError(AscError):
    """EBUSY: a flag set again before the wait for its previous set."""


class DeadlockError(AscError):
    """EDEADLK: waits that can never end."""


class EventIDExhaustedError(AscError):
    """ENOSPC: every event ID of the HardEvent is allocated."""


class EventIDNotAllocatedError(AscError):
    """ENOENT: a release (or, with strict IDs, a set or wait) of an ID not allocated."""


class EventIDInUseError(AscError):
    """EADDRINUSE: an alloc or fetch of an ID hand-written code is using."""


class WrongPipeError(AscError):
    """EPERM: a set or wait from a pipe other than the HardEvent's."""


class InvalidArgumentError(AscError):
    """EINVAL: a call the chip refuses, such as a cross-core set on PIPE_S."""


class CancelledError(AscError):
    """EINTR: the run was cancelled (Ctrl-C)."""


_BY_ERRNO: Dict[int, Type[AscError]] = {
    _errno.ENOLCK: MissingSyncError,
    _errno.EBUSY: DoubleSetError,
    _errno.EDEADLK: DeadlockError,
    _errno.ENOSPC: EventIDExhaustedError,
    _errno.ENOENT: EventIDNotAllocatedError,
    _errno.EADDRINUSE: EventIDInUseError,
    _errno.EPERM: WrongPipeError,
    _errno.EINTR: CancelledError,
    _errno.EINVAL: InvalidArgumentError,
}


def error(err: int, what: str, report: Optional[str] = None) -> AscError:
    """The AscError subclass for errno ``err``."""
    return _BY_ERRNO.get(err, AscError)(err, what, report)

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
import re
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
    """ENOLCK: accesses no set/wait or barrier orders, a set never waited for, or an ID leaked."""


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


class QueueError(AscError):
    """A misuse of a TQue, TQueBind or TBuf: the report's first line is a ``queue:`` line.

    Its errno says which: ENODATA deque of an empty queue, EOVERFLOW enque
    past the depth, EXDEV a tensor of another queue, ENOENT a tensor freed
    already, EALREADY enqueued already, EBUSY freed while enqueued, EDEADLK
    no free buffer, ENOLCK a tensor not freed or not dequeued by the end.
    """


class MemoryCheckError(AscError, ValueError):
    """EFAULT: an access the memory checks refuse; the report's first line says which.

    Also a ValueError, what the package raised before it checked memory.
    """


class OutOfBoundsError(MemoryCheckError):
    """An access past its LocalTensor's buffer, its local memory, its
    GlobalTensor's slice or the array the launch was given."""


class MisalignedAccessError(MemoryCheckError):
    """A data_copy (MTE2 or MTE3) at a Unified Buffer address off a 32-byte boundary."""


class UninitializedReadError(MemoryCheckError):
    """A read of local memory never written since init_buffer, with ASC_UNINIT_READS=error."""


class UninitializedReadWarning(UserWarning):
    """A read of local memory never written since init_buffer: the launch's warning."""


#: The memory checks' report lines, by their first words.
_MEMCHECK = (("out of bounds:", OutOfBoundsError), ("misaligned:", MisalignedAccessError),
             ("uninitialized read:", UninitializedReadError))

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
    _errno.EFAULT: MemoryCheckError,
}


#: The errnos of a queue's own checks (QueueError's).
QUEUE_ERRNOS = frozenset({_errno.ENODATA, _errno.EOVERFLOW, _errno.EXDEV, _errno.ENOENT,
                          _errno.EALREADY, _errno.EBUSY, _errno.EDEADLK, _errno.ENOLCK})

#: A launch's report names the core on a line of its own: "core 1 (AIV 1):".
_CORE_LINE = re.compile(r"^core \d+( \([^)]*\))?:$")


def _first_finding(report: Optional[str]) -> str:
    for line in (report or "").splitlines():
        line = line.strip()
        if line and not _CORE_LINE.match(line):
            return line
    return ""


def is_queue_report(report: Optional[str]) -> bool:
    """Whether the first finding of ``report`` is a queue's error (``queue: ...``)."""
    return _first_finding(report).startswith("queue:")


def error(err: int, what: str, report: Optional[str] = None, queue: bool = False) -> AscError:
    """The AscError subclass for errno ``err``: QueueError for a queue's call
    (``queue``) or a report that starts with a queue's error."""
    if queue or is_queue_report(report):
        return QueueError(err, what, report)
    if err == _errno.EFAULT:
        first = _first_finding(report)
        for prefix, cls in _MEMCHECK:
            if first.startswith(prefix):
                return cls(err, what, report)
    return _BY_ERRNO.get(err, AscError)(err, what, report)

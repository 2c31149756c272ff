# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's sync calls inside a kernel: set_flag, wait_flag, pipe_barrier.

Each is issued by the scalar to the core runtime: set_flag to the queue of
the HardEvent's source pipe, wait_flag to that of its destination pipe
(a wait on S blocks the scalar, with the GIL released), pipe_barrier to
its pipe (PIPE_ALL: the scalar waits for every pipe).
"""

from __future__ import annotations

from .enums import HardEvent, PipeID
from .runtime import _lib, current_core


def set_flag(event: HardEvent, event_id: int = 0) -> None:
    """set_flag(event, event_id): the source pipe of ``event`` sets the flag."""
    core = current_core("set_flag")
    event = HardEvent(event)
    core.check(_lib.asc_core_set_flag(core.ptr, int(event), int(event_id)),
               f"set_flag({event.name}, {int(event_id)})")


def wait_flag(event: HardEvent, event_id: int = 0) -> None:
    """wait_flag(event, event_id): the destination pipe of ``event`` waits for it."""
    core = current_core("wait_flag")
    event = HardEvent(event)
    core.check(_lib.asc_core_wait_flag(core.ptr, int(event), int(event_id)),
               f"wait_flag({event.name}, {int(event_id)})")


def pipe_barrier(pipe: PipeID) -> None:
    """pipe_barrier(pipe): order the pipe; PIPE_ALL waits for every pipe."""
    core = current_core("pipe_barrier")
    pipe = PipeID(pipe)
    core.check(_lib.asc_core_pipe_barrier(core.ptr, int(pipe)), f"pipe_barrier({pipe.name})")

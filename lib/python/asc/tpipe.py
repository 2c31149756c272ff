# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's TPipe: the one per kernel that owns the event-ID pool.

The TPipe of a kernel is its core's TPipe in libasc's core runtime: the
calls are the scalar's bookkeeping (asc_core_alloc_event_id() and the
like), made when the kernel reaches them.
"""

from __future__ import annotations

from .enums import HardEvent, PipeID
from .runtime import Core, _lib, current_core


class TPipe:
    """The kernel's TPipe; a kernel may create one only."""

    def __init__(self) -> None:
        core = current_core("TPipe")
        if core.tpipe is not None:
            raise RuntimeError("TPipe instance is already created, use get_tpipe_ptr() to obtain it")
        self._core = core
        core.tpipe = self

    def _enter(self, api: str) -> Core:
        core = current_core(f"TPipe.{api}")
        if core is not self._core:
            raise RuntimeError(f"TPipe.{api}: this TPipe belongs to another kernel")
        return core

    def alloc_event_id(self, event: HardEvent = HardEvent.V_S) -> int:
        """Allocate the lowest free ID of ``event``; release it with release_event_id()."""
        core = self._enter("alloc_event_id")
        event = HardEvent(event)
        return core.check(_lib.asc_core_alloc_event_id(core.ptr, int(event)),
                          f"alloc_event_id({event.name})")

    def fetch_event_id(self, event: HardEvent = HardEvent.V_S) -> int:
        """The ID alloc_event_id() would return now, not allocated."""
        core = self._enter("fetch_event_id")
        event = HardEvent(event)
        return core.check(_lib.asc_core_fetch_event_id(core.ptr, int(event)),
                          f"fetch_event_id({event.name})")

    def release_event_id(self, id: int, event: HardEvent = HardEvent.V_S) -> None:
        """Give back an ID alloc_event_id() returned (ID first, as in pyasc)."""
        core = self._enter("release_event_id")
        event = HardEvent(event)
        core.check(_lib.asc_core_release_event_id(core.ptr, int(id), int(event)),
                   f"release_event_id({int(id)}, {event.name})")

    def init(self) -> None:
        """Initialise the pool: every ID released, every fetched ID forgotten."""
        core = self._enter("init")
        core.check(_lib.asc_core_reset(core.ptr), "init")

    def reset(self) -> None:
        """Back to the state of a new TPipe (waits for the pipes' work first)."""
        core = self._enter("reset")
        core.check(_lib.asc_core_reset(core.ptr), "reset")

    def destroy(self) -> None:
        """A barrier of PIPE_ALL; the pool is left as it is."""
        core = self._enter("destroy")
        core.check(_lib.asc_core_pipe_barrier(core.ptr, int(PipeID.PIPE_ALL)), "destroy")


def get_tpipe_ptr() -> TPipe:
    """The kernel's TPipe, created by TPipe()."""
    core = current_core("get_tpipe_ptr")
    if core.tpipe is None:
        raise RuntimeError("TPipe instance is not initialized, use TPipe() to create it")
    return core.tpipe

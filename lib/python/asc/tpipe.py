# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's TPipe: the one per kernel that owns the event-ID pool and the
local memory of its queues.

The TPipe of a kernel is its core's TPipe in libasc's core runtime: the
calls are the scalar's bookkeeping (asc_core_alloc_event_id(),
asc_core_init_buffer() and the like), made when the kernel reaches them.
"""

from __future__ import annotations

from typing import Any

from .enums import HardEvent
from .runtime import Core, _lib, current_core, owner_core
from .where import call_site


class TPipe:
    """The kernel's TPipe; a kernel may create one only."""

    def __init__(self) -> None:
        core = current_core("TPipe")
        if core.tpipe is not None:
            raise RuntimeError("TPipe instance is already created, use get_tpipe_ptr() to obtain it")
        self._core = core
        core.tpipe = self

    def _enter(self, api: str) -> Core:
        return owner_core(self._core, f"TPipe.{api}", "this TPipe belongs to another kernel")

    def alloc_event_id(self, event: HardEvent = HardEvent.V_S) -> int:
        """Allocate the lowest free ID of ``event``; release it with release_event_id()."""
        core = self._enter("alloc_event_id")
        event = HardEvent(event)
        return core.check(_lib.asc_core_alloc_event_id_at(core.ptr, int(event), *call_site()),
                          f"alloc_event_id({event.name})")

    def fetch_event_id(self, event: HardEvent = HardEvent.V_S) -> int:
        """The ID alloc_event_id() would return now, not allocated."""
        core = self._enter("fetch_event_id")
        event = HardEvent(event)
        return core.check(_lib.asc_core_fetch_event_id_at(core.ptr, int(event), *call_site()),
                          f"fetch_event_id({event.name})")

    def release_event_id(self, id: int, event: HardEvent = HardEvent.V_S) -> None:
        """Give back an ID alloc_event_id() returned (ID first, as in pyasc)."""
        core = self._enter("release_event_id")
        event = HardEvent(event)
        core.check(_lib.asc_core_release_event_id_at(core.ptr, int(id), int(event), *call_site()),
                   f"release_event_id({int(id)}, {event.name})")

    def init_buffer(self, que: Any = None, num: int = 0, len: int = 0, buf: Any = None) -> None:
        """InitBuffer: ``num`` buffers of ``len`` bytes for queue ``que``, or
        for TBuf ``buf`` (or a TBuf given as ``que``) one buffer of ``num`` bytes."""
        from .tque import TBuf, TQueBind

        core = self._enter("init_buffer")
        target = buf if buf is not None else que
        if (buf is not None and que is not None) or not isinstance(target, TQueBind):
            raise TypeError("init_buffer: a TQue, TQueBind or TBuf (que=...) or a TBuf (buf=...)")
        if isinstance(target, TBuf):
            target._init_buffer(core, 1, num)
        else:
            target._init_buffer(core, num, len)

    def init(self) -> None:
        """Init: once the pipes have run what was issued, the pool empties and
        every queue's buffers are forgotten (init_buffer() again)."""
        core = self._enter("init")
        core.check(_lib.asc_core_tpipe_init_at(core.ptr, *call_site()), "init", queue=True)

    def reset(self) -> None:
        """Reset: as init(), after waiting for the free events still set."""
        core = self._enter("reset")
        core.check(_lib.asc_core_reset_at(core.ptr, *call_site()), "reset", queue=True)

    def destroy(self) -> None:
        """Destroy: waits for the free events still set, then a barrier of PIPE_ALL;
        the pool and the buffers stay."""
        core = self._enter("destroy")
        core.check(_lib.asc_core_tpipe_destroy_at(core.ptr, *call_site()), "destroy")


def get_tpipe_ptr() -> TPipe:
    """The kernel's TPipe, created by TPipe()."""
    core = current_core("get_tpipe_ptr")
    if core.tpipe is None:
        raise RuntimeError("TPipe instance is not initialized, use TPipe() to create it")
    return core.tpipe

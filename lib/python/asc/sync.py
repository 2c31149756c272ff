# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's sync calls inside a kernel: set_flag, wait_flag, pipe_barrier,
and between the cores of a launch cross_core_set_flag, cross_core_wait_flag
and sync_all.

Each is issued by the scalar to the core runtime: set_flag to the queue of
the HardEvent's source pipe, wait_flag to that of its destination pipe
(a wait on S blocks the scalar, with the GIL released), pipe_barrier to
its pipe (PIPE_ALL: the scalar waits for every pipe), a cross-core set to
the pipe it names, a cross-core wait to its pipe (PIPE_S: the scalar
waits); sync_all makes the scalar wait for every core.
"""

from __future__ import annotations

from typing import Any, Optional

from .enums import LAUNCH_KIND, HardEvent, KernelType, PipeID
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


def cross_core_set_flag(flag_id: int, mode_id: int, pipe: PipeID) -> None:
    """CrossCoreSetFlag<mode_id, pipe>(flag_id): add one to cross-core flag ``flag_id``.

    ``pipe`` issues it, after everything issued to it before (any pipe but
    PIPE_S and PIPE_ALL).  ``mode_id`` says whose counters get one: 0 every
    core of this core's type; in a MIX_AIC_1_2 launch 1 (from an AIV) both
    AIVs of this AI core, 2 from an AIC its two AIVs, from an AIV (once
    both issued it) their AIC.  ``flag_id`` is 0..10.  A bad argument
    raises InvalidArgumentError (EINVAL) and ends the launch.
    """
    core = current_core("cross_core_set_flag")
    pipe = PipeID(pipe)
    core.check(_lib.asc_core_cross_set_flag(core.ptr, int(flag_id), int(mode_id), int(pipe)),
               f"cross_core_set_flag({int(flag_id)}, {int(mode_id)}, {pipe.name})")


def cross_core_wait_flag(flag_id: int, mode_id: int, pipe: PipeID) -> None:
    """CrossCoreWaitFlag(flag_id): wait until cross-core flag ``flag_id`` is set, take one.

    On PIPE_S the scalar waits (the A2/A3 chips' wait, which blocks every
    pipe), with the GIL released; on another pipe the wait is queued there
    and that pipe runs nothing issued after it until the flag comes.
    ``mode_id`` is taken as pyasc takes it; as on those chips, the wait
    does not depend on it.  A wait no core can end raises DeadlockError.
    """
    core = current_core("cross_core_wait_flag")
    pipe = PipeID(pipe)
    core.check(_lib.asc_core_cross_wait_flag(core.ptr, int(flag_id), int(pipe)),
               f"cross_core_wait_flag({int(flag_id)}, {int(mode_id)}, {pipe.name})")


def sync_all(gm_workspace: Optional[Any] = None, ub_workspace: Optional[Any] = None,
             used_cores: int = 0, is_aiv_only: bool = True) -> None:
    """SyncAll(): the hardware variant; the scalar waits until every core has reached it.

    A PIPE_ALL barrier first, as on the chip.  The software variant (with
    ``gm_workspace`` and ``ub_workspace``) is not emulated, nor a SyncAll
    of the AIVs only in a MIX_AIC_1_2 launch (``is_aiv_only`` there must
    be False: every core of the launch takes part): both raise
    NotImplementedError.
    """
    core = current_core("sync_all")
    if gm_workspace is not None or ub_workspace is not None:
        raise NotImplementedError("sync_all: the software SyncAll (with workspaces) is not emulated")
    if is_aiv_only and core.kind == LAUNCH_KIND[KernelType.MIX_AIC_1_2]:
        raise NotImplementedError("sync_all: a SyncAll of the AIVs only in a MIX_AIC_1_2 launch "
                                  "is not emulated; is_aiv_only=False syncs every core")
    core.check(_lib.asc_core_sync_all(core.ptr), "sync_all")

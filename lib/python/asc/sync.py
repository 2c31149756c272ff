# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's sync calls inside a kernel: set_flag, wait_flag, pipe_barrier,
and between the cores of a launch cross_core_set_flag, cross_core_wait_flag,
sync_all, and Ascend C's software sync ib_set and ib_wait.

Each is issued by the scalar to the core runtime: set_flag to the queue of
the HardEvent's source pipe, wait_flag to that of its destination pipe
(a wait on S blocks the scalar, with the GIL released), pipe_barrier to
its pipe (PIPE_ALL: the scalar waits for every pipe), a cross-core set to
the pipe it names, a cross-core wait to its pipe (PIPE_S: the scalar
waits); sync_all makes the scalar wait for every core (in a MIX_AIC_1_2
launch by default for every AIV, the AICs taking no part).  The software sync
(sync_all with a workspace, ib_set, ib_wait) is libasc's: counters in a
global-memory workspace, set on MTE3 and polled on MTE2.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _libasc, speedups
from .enums import LAUNCH_KIND, HardEvent, KernelType, PipeID
from .runtime import Core, _lib, _local, current_core
from .tensor import GlobalTensor
from .where import call_site

#: Bytes per counter of a software sync's workspace (ASC_GM_SLOT_BYTES).
GM_SLOT_BYTES = 32


def _flag(api: str, call, event: HardEvent, event_id: int) -> None:
    core = getattr(_local, "core", None)
    if core is None or core.cancelled:
        core = current_core(api)
    if type(event) is not HardEvent:
        event = HardEvent(event)
    event_id = int(event_id)
    file, line = call_site()
    rc = call(core.cptr, event._value_, event_id, file, line)
    if rc < 0:
        core.check(rc, f"{api}({event.name}, {event_id})")


#: Called with their arguments converted (_libasc.raw): core.cptr, ints, bytes.
_set_flag_at = _libasc.raw.asc_core_set_flag_at
_wait_flag_at = _libasc.raw.asc_core_wait_flag_at
_pipe_barrier_at = _libasc.raw.asc_core_pipe_barrier_at


def py_set_flag(event: HardEvent, event_id: int = 0) -> None:
    """set_flag(event, event_id): the source pipe of ``event`` sets the flag."""
    _flag("set_flag", _set_flag_at, event, event_id)


def py_wait_flag(event: HardEvent, event_id: int = 0) -> None:
    """wait_flag(event, event_id): the destination pipe of ``event`` waits for it."""
    _flag("wait_flag", _wait_flag_at, event, event_id)


def py_pipe_barrier(pipe: PipeID) -> None:
    """pipe_barrier(pipe): order the pipe; PIPE_ALL waits for every pipe."""
    core = getattr(_local, "core", None)
    if core is None or core.cancelled:
        core = current_core("pipe_barrier")
    if type(pipe) is not PipeID:
        pipe = PipeID(pipe)
    file, line = call_site()
    rc = _pipe_barrier_at(core.cptr, pipe._value_, file, line)
    if rc < 0:
        core.check(rc, f"pipe_barrier({pipe.name})")


#: The calls of kernels: those of asc._speedups, else the Python ones above
#: (py_set_flag, py_wait_flag, py_pipe_barrier), which they match.
if speedups.module is not None:
    set_flag = speedups.module.set_flag
    wait_flag = speedups.module.wait_flag
    pipe_barrier = speedups.module.pipe_barrier
else:
    set_flag, wait_flag, pipe_barrier = py_set_flag, py_wait_flag, py_pipe_barrier


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
    core.check(_lib.asc_core_cross_set_flag_at(core.ptr, int(flag_id), int(mode_id), int(pipe),
                                                  *call_site()),
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
    core.check(_lib.asc_core_cross_wait_flag_at(core.ptr, int(flag_id), int(pipe), *call_site()),
               f"cross_core_wait_flag({int(flag_id)}, {int(mode_id)}, {pipe.name})")


def _blocks(core: Core) -> int:
    """The cores of the caller's type: the blocks a workspace has counters for."""
    return _lib.asc_core_block_num(core.ptr) * _lib.asc_core_sub_block_num(core.ptr)


def _workspace(api: str, gm_workspace: Any, counters: int) -> int:
    """The address of ``gm_workspace``, a GlobalTensor of 4-byte elements
    holding at least ``counters`` counters of GM_SLOT_BYTES each."""
    if not isinstance(gm_workspace, GlobalTensor):
        raise TypeError(f"{api}: gm_workspace must be a GlobalTensor")
    view = gm_workspace._view()
    if view.dtype.itemsize != 4:
        raise ValueError(f"{api}: gm_workspace must hold 4-byte elements (int32, uint32)")
    if view.nbytes < counters * GM_SLOT_BYTES:
        raise ValueError(f"{api}: gm_workspace has {view.nbytes} bytes, "
                         f"{counters * GM_SLOT_BYTES} needed")
    return view.ctypes.data


def ib_set(gm_workspace: GlobalTensor, ub_workspace: Optional[Any], block_idx: int,
           event_id: int) -> None:
    """IBSet(gmWorkspace, ubWorkspace, blockIdx, eventID): set the flag of
    (``block_idx``, ``event_id``) in ``gm_workspace``.

    Every pipe first runs what was issued before (PIPE_ALL), then MTE3 adds
    one to the counter (``asc_core_ib_set()``).  ``gm_workspace`` holds
    GM_SLOT_BYTES per (block, event), zeroed before the launch;
    ``ub_workspace`` is taken as Ascend C takes it and not needed (the
    emulated pipes write global memory directly).
    """
    core = current_core("ib_set")
    n = _blocks(core)
    addr = _workspace("ib_set", gm_workspace, (int(event_id) + 1) * n)
    core.check(_lib.asc_core_ib_set_at(core.ptr, addr, int(block_idx), int(event_id), *call_site()),
               f"ib_set(block {int(block_idx)}, event {int(event_id)})")


def ib_wait(gm_workspace: GlobalTensor, ub_workspace: Optional[Any], block_idx: int,
            event_id: int) -> None:
    """IBWait(gmWorkspace, ubWorkspace, blockIdx, eventID): wait for the flag
    of (``block_idx``, ``event_id``) that ib_set sets.

    MTE2 polls the counter until it has counted as many sets as this core
    has waited for (the n-th wait waits for the n-th set), then every pipe
    waits for it (PIPE_ALL).  A wait no set can end raises DeadlockError.
    """
    core = current_core("ib_wait")
    n = _blocks(core)
    addr = _workspace("ib_wait", gm_workspace, (int(event_id) + 1) * n)
    core.check(_lib.asc_core_ib_wait_at(core.ptr, addr, int(block_idx), int(event_id), *call_site()),
               f"ib_wait(block {int(block_idx)}, event {int(event_id)})")


def sync_all(gm_workspace: Optional[Any] = None, ub_workspace: Optional[Any] = None,
             used_cores: int = 0, is_aiv_only: bool = True) -> None:
    """SyncAll(): the scalar waits until every core has reached it.

    Without ``gm_workspace``, the hardware variant: a PIPE_ALL barrier
    first, as on the chip, then every core of the launch meets.  In a
    MIX_AIC_1_2 launch ``is_aiv_only=True`` (the default, SyncAll<true>)
    is the SyncAll of the AIVs only (``asc_core_sync_all_aiv()``): every
    AIV meets, the AICs take no part and may meet meanwhile in the
    SyncAll of every core (``is_aiv_only=False``), which the AIVs may join
    after.  An AIC that asks for the AIVs' raises InvalidArgumentError
    (EINVAL); an AIV that comes to one while another AIV waits in the
    other raises DeadlockError (they would wait for each other forever).
    Both end the launch.  In other launches both are every core's.

    With ``gm_workspace`` (a GlobalTensor of int32 or uint32, zeroed before
    the launch, GM_SLOT_BYTES per core), the software variant
    (SyncAll<false>, ``asc_core_sync_all_gm()``): the cores of the
    caller's type with blocks 0..``used_cores``-1 (0: all of them) meet
    through counters in the workspace, set on MTE3 and polled on MTE2;
    ``ub_workspace`` is taken and not needed.  In a MIX_AIC_1_2 launch it
    syncs the cores of the caller's type, so there ``is_aiv_only`` must be
    True on an AIV (NotImplementedError otherwise).
    """
    core = current_core("sync_all")
    if gm_workspace is not None:
        mix = core.kind == LAUNCH_KIND[KernelType.MIX_AIC_1_2]
        if mix and not is_aiv_only:
            raise NotImplementedError("sync_all: a software SyncAll of the AICs and AIVs "
                                      "together is not emulated")
        if mix and _lib.asc_core_sub_block_num(core.ptr) == 1:
            raise NotImplementedError("sync_all: is_aiv_only=True on an AIC")
        used = int(used_cores) if used_cores else _blocks(core)
        addr = _workspace("sync_all", gm_workspace, used)
        core.check(_lib.asc_core_sync_all_gm_at(core.ptr, addr, int(used_cores), *call_site()),
                   f"sync_all(used_cores={int(used_cores)})")
        return
    if ub_workspace is not None:
        raise ValueError("sync_all: ub_workspace without gm_workspace")
    if is_aiv_only and core.kind == LAUNCH_KIND[KernelType.MIX_AIC_1_2]:
        core.check(_lib.asc_core_sync_all_aiv_at(core.ptr, *call_site()), "sync_all")
        return
    core.check(_lib.asc_core_sync_all_at(core.ptr, *call_site()), "sync_all")

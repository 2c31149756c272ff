# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's TQue, TQueBind and TBuf: the queues and buffers of the kernel's TPipe.

Each is libasc's (asc_core_tque(), asc_core_tque_bind(), asc_core_tbuf()):
TPipe.init_buffer() places its buffers in the core's local memory, and
alloc_tensor(), enque(), deque() and free_tensor() follow Ascend C's
protocol there, each ID from the TPipe's pool and each set and wait issued
to its pipe, with the core runtime's checks and the missing-sync detector
watching.  A queue is named after the variable the kernel assigns it to
(``in_queue_x = asc.TQue(...)``), its buffers ``in_queue_x[0]``...; every
call passes the kernel's line, so that a report names the queue, the
tensor and the line.
"""

from __future__ import annotations

import ctypes
from typing import Any, Optional

from . import _libasc
from .enums import TPosition
from .runtime import Core, _lib, current_core, owner_core
from .tensor import DataType, LocalTensor
from .where import assigned_name, call_site


class _Buffer:
    """One buffer of a queue or TBuf, as a tensor names it: where its user tag is."""

    def __init__(self, owner: "TQueBind", index: int) -> None:
        self.owner = owner
        self.index = index

    @property
    def tag(self) -> int:
        return self.owner._tags.get(self.index, 0)

    @tag.setter
    def tag(self, value: int) -> None:
        self.owner._tags[self.index] = value


def _int_arg(value: Any, name: str) -> int:
    """pyasc's check of a constructor's ConstExpr[int] argument."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"ConstExpr[int] is required for '{name}' argument, "
                           f"{value.__class__.__name__} was provided: {value}")
    return int(value)


class TQueBind:
    """TQueBind(src, dst, depth): a queue from position ``src`` to ``dst``.

    Its events are Ascend C's for the two positions' memories; its buffers
    are in the memory of ``dst`` (of ``src`` when ``dst`` is GM).  A depth
    of 0 keeps no order: its consumer names the tensor, ``deque(tensor)``.
    """

    _kind = "TQueBind"

    def __init__(self, src: TPosition = TPosition.VECIN, dst: TPosition = TPosition.VECIN,
                 depth: int = 0, mask: int = 0) -> None:
        core = current_core(self._kind)
        src, dst = TPosition(_int_arg(src, "src")), TPosition(_int_arg(dst, "dst"))
        depth = _int_arg(depth, "depth")
        self._make(core, _lib.asc_core_tque_bind_at, int(src), int(dst), depth, mask=mask)

    def _make(self, core: Core, fn, *args: int, mask: int = 0) -> None:
        if mask:
            raise NotImplementedError(f"{self._kind}: mask {mask} is not emulated (0 is)")
        name = assigned_name()
        self._core = core
        self._tags: dict = {}
        self._ptr = fn(core.ptr, *args, name.encode() if name else None, *call_site())
        if not self._ptr:
            core.check(-1, f"{self._kind}({', '.join(str(a) for a in args)})")
        self.name = name

    def _enter(self, api: str) -> Core:
        return owner_core(self._core, f"{self._kind}.{api}", "this queue belongs to another "
                          "core's kernel")

    def _tensor(self, core: Core, local: _libasc.Local, dtype: DataType) -> LocalTensor:
        mem = core.mem(local.mem)
        return LocalTensor._make(core, dtype.np, TPosition(local.pos), int(local.offset),
                                 int(local.size), _Buffer(self, local.buf),
                                 local.name.decode(), mem=mem, local=local)

    def _local_of(self, api: str, tensor: Any) -> _libasc.Local:
        if not isinstance(tensor, LocalTensor):
            raise TypeError(f"{self._kind}.{api}: a LocalTensor, not {tensor.__class__.__name__}")
        return tensor._as_local()

    def alloc_tensor(self, dtype_or_tensor: Any) -> Optional[LocalTensor]:
        """AllocTensor: the next free buffer as a tensor of ``dtype``
        (or, given a LocalTensor, into it); waits for its free event."""
        core = self._enter("alloc_tensor")
        out = _libasc.Local()
        core.check(_lib.asc_core_alloc_tensor_at(core.ptr, self._ptr, ctypes.byref(out),
                                                 *call_site()), "alloc_tensor", queue=True)
        return self._result(core, out, dtype_or_tensor, "alloc_tensor")

    def _result(self, core: Core, out: _libasc.Local, dtype_or_tensor: Any,
                api: str) -> Optional[LocalTensor]:
        if isinstance(dtype_or_tensor, LocalTensor):
            dtype_or_tensor._become(self._tensor(core, out, dtype_or_tensor.dtype))
            return None
        if not isinstance(dtype_or_tensor, DataType):
            raise TypeError(f"{self._kind}.{api}: a DataType or a LocalTensor, "
                            f"not {dtype_or_tensor.__class__.__name__}")
        return self._tensor(core, out, dtype_or_tensor)

    def enque(self, tensor: LocalTensor, *user_pos: TPosition) -> None:
        """EnQue: hand ``tensor`` to the consumer (sets the queue's enqueue event)."""
        if user_pos:
            raise NotImplementedError(f"{self._kind}.enque: the form with user positions "
                                      "is not emulated")
        core = self._enter("enque")
        local = self._local_of("enque", tensor)
        core.check(_lib.asc_core_enque_at(core.ptr, self._ptr, ctypes.byref(local),
                                          *call_site()), "enque", queue=True)

    def deque(self, dtype_or_tensor: Any, *user_pos: TPosition) -> Optional[LocalTensor]:
        """DeQue: the oldest tensor enqueued, as ``dtype`` (waits for its enqueue
        event); given a tensor, a depth-0 queue's DeQue of that tensor."""
        if user_pos:
            raise NotImplementedError(f"{self._kind}.deque: the form with user positions "
                                      "is not emulated")
        core = self._enter("deque")
        if isinstance(dtype_or_tensor, LocalTensor):
            local = dtype_or_tensor._as_local()
            core.check(_lib.asc_core_deque_tensor_at(core.ptr, self._ptr, ctypes.byref(local),
                                                     *call_site()), "deque", queue=True)
            return None
        out = _libasc.Local()
        core.check(_lib.asc_core_deque_at(core.ptr, self._ptr, ctypes.byref(out), *call_site()),
                   "deque", queue=True)
        return self._result(core, out, dtype_or_tensor, "deque")

    def free_tensor(self, tensor: LocalTensor) -> None:
        """FreeTensor: give the tensor's buffer back (sets the queue's free event)."""
        core = self._enter("free_tensor")
        local = self._local_of("free_tensor", tensor)
        core.check(_lib.asc_core_free_tensor_at(core.ptr, self._ptr, ctypes.byref(local),
                                                *call_site()), "free_tensor", queue=True)

    def _init_buffer(self, core: Core, num: int, length: int) -> None:
        core.check(_lib.asc_core_init_buffer_at(core.ptr, self._ptr, int(num), int(length),
                                                *call_site()),
                   f"init_buffer({self.name or self._kind}, {int(num)}, {int(length)})")


class TQue(TQueBind):
    """TQue(pos, depth): a queue at position ``pos`` (VECIN: MTE2 to V, VECOUT: V to MTE3...)."""

    _kind = "TQue"

    def __init__(self, pos: TPosition = TPosition.VECIN, depth: Optional[int] = None,
                 mask: int = 0) -> None:
        core = current_core(self._kind)
        pos = TPosition(_int_arg(pos, "pos"))
        depth = _int_arg(depth, "depth")
        self._make(core, _lib.asc_core_tque_at, int(pos), depth, mask=mask)


class TBuf(TQueBind):
    """TBuf(pos): a buffer of the TPipe without events: the kernel syncs its uses.

    As in Ascend C, alloc_tensor() and deque() are get(), enque() and
    free_tensor() do nothing.
    """

    _kind = "TBuf"

    def __init__(self, pos: Optional[TPosition] = None) -> None:
        core = current_core(self._kind)
        pos = TPosition(_int_arg(pos, "pos"))
        self._make(core, _lib.asc_core_tbuf_at, int(pos))

    def get(self, dtype: DataType, len: Optional[int] = None, shape: Any = None) -> LocalTensor:
        """Get: the buffer as a tensor of ``dtype``, its first ``len`` elements (all)."""
        core = self._enter("get")
        if shape is not None:
            raise NotImplementedError("TBuf.get: shapes are not emulated")
        out = _libasc.Local()
        nbytes = int(len) * dtype.sizeof() if len else 0
        core.check(_lib.asc_core_tbuf_get_at(core.ptr, self._ptr, nbytes, ctypes.byref(out),
                                             *call_site()), "get", queue=True)
        return self._tensor(core, out, dtype)

    def get_with_offset(self, size: int, buf_offset: int, dtype: DataType) -> LocalTensor:
        """GetWithOffset: ``size`` elements of ``dtype`` from byte ``buf_offset``."""
        if int(buf_offset) % 32 != 0:
            raise ValueError("buf_offset must be align to 32B.")
        core = self._enter("get_with_offset")
        out = _libasc.Local()
        core.check(_lib.asc_core_tbuf_get_with_offset_at(
            core.ptr, self._ptr, int(size) * dtype.sizeof(), int(buf_offset),
            ctypes.byref(out), *call_site()), "get_with_offset", queue=True)
        return self._tensor(core, out, dtype)

    def alloc_tensor(self, dtype: DataType) -> LocalTensor:  # type: ignore[override]
        """As get(dtype)."""
        return self.get(dtype)

    def deque(self, dtype: DataType) -> LocalTensor:  # type: ignore[override]
        """As get(dtype)."""
        return self.get(dtype)

    def enque(self, tensor: LocalTensor) -> None:  # type: ignore[override]
        """Nothing, as in Ascend C."""
        self._enter("enque")

    def free_tensor(self, tensor: LocalTensor) -> None:
        """Nothing, as in Ascend C."""
        self._enter("free_tensor")

# SPDX-License-Identifier: LGPL-2.1-or-later
"""asc: pyasc's names over libasc and its core runtime (asc-event).

Kernels written with pyasc's sync calls run as written on an emulated AI
core: ``@asc.jit`` makes a kernel, ``kernel[core_num](*args)`` runs it
(numpy arrays become global memory), and inside it ``asc.TPipe()``,
``alloc_event_id``/``fetch_event_id``/``release_event_id``,
``asc.set_flag``/``asc.wait_flag``/``asc.pipe_barrier``, ``asc.data_copy``,
``asc.add``/``mul``/``muls``/``duplicate`` and ``get_value``/``set_value``
are issued to their pipes, with the runtime's missing-sync detector
watching; numpy arrays and CPU torch tensors are the kernels' global
memory, ``kernel[core_num, rt.current_stream()]`` pyasc's launch with a
stream, ``asc.ConstExpr[int]`` its annotation of launch-time constants; the cores of a launch meet through ``asc.cross_core_set_flag``,
``asc.cross_core_wait_flag`` and ``asc.sync_all`` (with a workspace, the
software SyncAll), and ``asc.ib_set``/``asc.ib_wait``.  Errors are
:class:`AscError` (an ``OSError``).  pyasc's modules ``asc.runtime.config``
(:mod:`asc.config`) and ``asc.lib.runtime`` (:mod:`asc.device`) are
registered as such on import, the way ``os.path`` is.  See
Documentation/python.rst.
"""

import sys as _sys
import types as _types

from . import _libasc, config, device, runtime
from .constexpr import ConstExpr
from .enums import HardEvent, KernelType, PipeID, TPosition, check_libasc
from .errors import (AscError, CancelledError, DeadlockError, DoubleSetError,
                     EventIDExhaustedError, EventIDInUseError,
                     EventIDNotAllocatedError, InvalidArgumentError, MemoryCheckError,
                     MisalignedAccessError, MissingSyncError, OutOfBoundsError, QueueError,
                     UninitializedReadError, UninitializedReadWarning, WrongPipeError)
from .ops import add, bilinear_interpolation, data_copy, duplicate, mul, muls
from .runtime import (JITFunction, get_block_idx, get_block_num, get_sub_block_idx,
                      get_sub_block_num, jit)
from .sync import (cross_core_set_flag, cross_core_wait_flag, ib_set, ib_wait, pipe_barrier,
                   set_flag, sync_all, wait_flag)
from .tensor import (DataType, GlobalAddress, GlobalTensor, LocalTensor, double,
                     float16, float32, float64, float_, half, int8, int16, int32,
                     int64, int_, uint8, uint16, uint32, uint64)
from .tpipe import TPipe, get_tpipe_ptr
from .tque import TBuf, TQue, TQueBind

check_libasc(_libasc.lib)

# pyasc's module layout: import asc.runtime.config, import asc.lib.runtime.
runtime.config = config
lib = _types.ModuleType("asc.lib", "pyasc's asc.lib: asc.lib.runtime is asc.device.")
lib.runtime = device
_sys.modules.update({"asc.runtime.config": config, "asc.lib": lib, "asc.lib.runtime": device})

#: The release of libasc this package runs on (the asc-event release).
__version__ = _libasc.version()

__all__ = [
    "AscError", "CancelledError", "ConstExpr", "DataType", "DeadlockError", "DoubleSetError",
    "EventIDExhaustedError", "EventIDInUseError", "EventIDNotAllocatedError",
    "GlobalAddress", "GlobalTensor", "HardEvent", "InvalidArgumentError", "JITFunction",
    "KernelType", "LocalTensor", "MemoryCheckError", "MisalignedAccessError", "MissingSyncError",
    "OutOfBoundsError", "PipeID", "QueueError", "TBuf", "TPipe", "TPosition", "TQue", "TQueBind",
    "UninitializedReadError", "UninitializedReadWarning", "WrongPipeError", "add", "bilinear_interpolation", "cross_core_set_flag", "cross_core_wait_flag", "data_copy",
    "double", "duplicate", "float16", "float32", "float64", "float_", "get_block_idx",
    "get_block_num", "get_sub_block_idx", "get_sub_block_num", "get_tpipe_ptr", "half",
    "ib_set", "ib_wait", "int16", "int32", "int64", "int8", "int_", "jit", "mul", "muls", "pipe_barrier",
    "set_flag", "sync_all", "uint16", "uint32", "uint64", "uint8", "wait_flag",
]

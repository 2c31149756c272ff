# SPDX-License-Identifier: LGPL-2.1-or-later
"""ctypes declarations of libasc (lib/asc.h) and where the library is found.

The library is looked up, in this order: the file named by the environment
variable ASC_LIBASC; the libasc.so.1 of the install this package came with
(asc/_install.py, written by ``make install``), or else build/lib/libasc.so.1
of the source tree the package sits in; then ``libasc.so.1`` through the dynamic
linker.  ctypes releases the GIL around every call.
"""

from __future__ import annotations

import ctypes
import os
from typing import List, Optional

SONAME = "libasc.so.1"


class Access(ctypes.Structure):
    """struct asc_access: a buffer an instruction reads or writes."""

    _fields_ = [
        ("addr", ctypes.c_void_p),
        ("size", ctypes.c_size_t),
        ("write", ctypes.c_int),
        ("name", ctypes.c_char_p),
    ]


class _Scalar(ctypes.Union):
    """The scalar of struct asc_op."""

    _fields_ = [
        ("i", ctypes.c_int64),
        ("u", ctypes.c_uint64),
        ("f", ctypes.c_double),
    ]


class Op(ctypes.Structure):
    """struct asc_op: a data_copy or vector instruction libasc runs (its
    scalar's members i, u and f are the struct's own)."""

    _anonymous_ = ("scalar",)
    _fields_ = [
        ("kind", ctypes.c_int),
        ("dtype", ctypes.c_int),
        ("dst", ctypes.c_void_p),
        ("src0", ctypes.c_void_p),
        ("src1", ctypes.c_void_p),
        ("scalar", _Scalar),
        ("count", ctypes.c_size_t),
    ]


#: enum asc_op_kind.
OP_COPY, OP_ADD, OP_MUL, OP_MULS, OP_DUPLICATE = 1, 2, 3, 4, 5
#: enum asc_dtype: the numpy dtype names of each, from 1.
DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64")


class CoreAttr(ctypes.Structure):
    """struct asc_core_attr: device and mode of the cores of asc_launch_run()."""

    _fields_ = [
        ("device", ctypes.c_char_p),
        ("unchecked", ctypes.c_int),
        ("strict_ids", ctypes.c_int),
    ]


class Local(ctypes.Structure):
    """struct asc_local: a LocalTensor a queue handed out or a TBuf gave."""

    _fields_ = [
        ("addr", ctypes.c_void_p),
        ("size", ctypes.c_size_t),
        ("name", ctypes.c_char_p),
        ("que", ctypes.c_void_p),
        ("pos", ctypes.c_int),
        ("mem", ctypes.c_int),
        ("offset", ctypes.c_uint32),
        ("buf", ctypes.c_int),
        ("gen", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32 * 5),
    ]


#: enum asc_mem: the local memories of a core, and their names in reports.
MEMS = ("UB", "L1", "L0A", "L0B", "L0C", "BT", "FB")
MEM_UB = 0

KERNEL_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
WORK_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def candidates() -> List[str]:
    """The paths tried, in order, to load libasc."""
    paths = []
    env = os.environ.get("ASC_LIBASC")
    if env:
        paths.append(env)
    try:
        from . import _install  # written by make install
        paths.append(os.path.join(_install.LIBDIR, SONAME))
    except ImportError:
        # Not installed: the package of a source tree, beside its build.
        here = os.path.dirname(os.path.abspath(__file__))
        paths.append(os.path.normpath(os.path.join(here, "..", "..", "..", "build", "lib",
                                                   SONAME)))
    paths.append(SONAME)
    return paths


def _load() -> tuple[ctypes.CDLL, str]:
    errors = []
    for path in candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        try:
            return ctypes.CDLL(path, use_errno=True), path
        except OSError as e:
            errors.append(str(e))
    raise ImportError("asc: cannot load libasc: " + "; ".join(errors))


lib, path = _load()
#: The same library, its functions without prototypes, for the calls made
#: per instruction: their callers pass each argument converted (a pointer
#: as a c_void_p or byref(), a string as bytes), which costs less than
#: ctypes' conversion through argtypes (about as much as the call itself).
raw = ctypes.CDLL(path, use_errno=True)


def _proto(name: str, restype, *argtypes) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_P = ctypes.c_void_p
_I = ctypes.c_int
_S = ctypes.c_char_p
_Z = ctypes.c_size_t
_L = ctypes.POINTER(Local)
_proto("asc_pipe_open", _P, ctypes.c_char_p)
_proto("asc_pipe_close", None, _P)
_proto("asc_pipe_mode", _I, _P)
_proto("asc_event_ids", _I, _P)
_proto("asc_hard_event_name", ctypes.c_char_p, _I)
_proto("asc_hard_event_src_pipe", _I, _I)
_proto("asc_hard_event_dst_pipe", _I, _I)
_proto("asc_pipe_id_name", ctypes.c_char_p, _I)
_proto("asc_version_string", ctypes.c_char_p)
_proto("asc_core_issue", _I, _P, _I, WORK_FN, _P, ctypes.c_char_p,
       ctypes.POINTER(Access), ctypes.c_uint)
_proto("asc_core_set_flag", _I, _P, _I, _I)
_proto("asc_core_wait_flag", _I, _P, _I, _I)
_proto("asc_core_pipe_barrier", _I, _P, _I)
_proto("asc_core_alloc_event_id", _I, _P, _I)
_proto("asc_core_fetch_event_id", _I, _P, _I)
_proto("asc_core_release_event_id", _I, _P, _I, _I)
_proto("asc_core_reset", _I, _P)
_proto("asc_core_pipe", _P, _P)
_proto("asc_launch_run", _I, KERNEL_FN, _P, _I, ctypes.c_uint, ctypes.POINTER(CoreAttr),
       ctypes.POINTER(ctypes.c_void_p))
_proto("asc_core_block_idx", _I, _P)
_proto("asc_core_block_num", _I, _P)
_proto("asc_core_sub_block_idx", _I, _P)
_proto("asc_core_sub_block_num", _I, _P)
_proto("asc_core_type", _I, _P)
_proto("asc_core_cross_set_flag", _I, _P, _I, _I, _I)
_proto("asc_core_cross_wait_flag", _I, _P, _I, _I)
_proto("asc_core_sync_all", _I, _P)
_proto("asc_core_sync_all_aiv", _I, _P)
_proto("asc_core_ib_set", _I, _P, _P, _I, _I)
_proto("asc_core_ib_wait", _I, _P, _P, _I, _I)
_proto("asc_core_sync_all_gm", _I, _P, _P, _I)
_proto("asc_core_cancel", _I, _P)
# The instructions of a kernel, each with the kernel's file and line (call sites).
_proto("asc_core_issue_at", _I, _P, _I, WORK_FN, _P, _S, ctypes.POINTER(Access),
       ctypes.c_uint, _S, _I)
_proto("asc_core_issue_op_at", _I, _P, _I, ctypes.POINTER(Op), _S, ctypes.POINTER(Access),
       ctypes.c_uint, _S, _I)
_proto("asc_core_set_flag_at", _I, _P, _I, _I, _S, _I)
_proto("asc_core_wait_flag_at", _I, _P, _I, _I, _S, _I)
_proto("asc_core_pipe_barrier_at", _I, _P, _I, _S, _I)
_proto("asc_core_alloc_event_id_at", _I, _P, _I, _S, _I)
_proto("asc_core_fetch_event_id_at", _I, _P, _I, _S, _I)
_proto("asc_core_release_event_id_at", _I, _P, _I, _I, _S, _I)
_proto("asc_core_reset_at", _I, _P, _S, _I)
_proto("asc_core_cross_set_flag_at", _I, _P, _I, _I, _I, _S, _I)
_proto("asc_core_cross_wait_flag_at", _I, _P, _I, _I, _S, _I)
_proto("asc_core_sync_all_at", _I, _P, _S, _I)
_proto("asc_core_sync_all_aiv_at", _I, _P, _S, _I)
_proto("asc_core_ib_set_at", _I, _P, _P, _I, _I, _S, _I)
_proto("asc_core_ib_wait_at", _I, _P, _P, _I, _I, _S, _I)
_proto("asc_core_sync_all_gm_at", _I, _P, _P, _I, _S, _I)
# Local memory, TQue, TQueBind and TBuf.
_proto("asc_core_local_mem", _P, _P, _I, ctypes.POINTER(_Z))
_proto("asc_core_tque_at", _P, _P, _I, _I, _S, _S, _I)
_proto("asc_core_tque_bind_at", _P, _P, _I, _I, _I, _S, _S, _I)
_proto("asc_core_tbuf_at", _P, _P, _I, _S, _S, _I)
_proto("asc_core_init_buffer_at", _I, _P, _P, _I, _Z, _S, _I)
_proto("asc_core_alloc_tensor_at", _I, _P, _P, _L, _S, _I)
_proto("asc_core_enque_at", _I, _P, _P, _L, _S, _I)
_proto("asc_core_deque_at", _I, _P, _P, _L, _S, _I)
_proto("asc_core_deque_tensor_at", _I, _P, _P, _L, _S, _I)
_proto("asc_core_free_tensor_at", _I, _P, _P, _L, _S, _I)
_proto("asc_core_tbuf_get_at", _I, _P, _P, _Z, _L, _S, _I)
_proto("asc_core_tbuf_get_with_offset_at", _I, _P, _P, _Z, _Z, _L, _S, _I)
_proto("asc_core_tpipe_init_at", _I, _P, _S, _I)
_proto("asc_core_tpipe_destroy_at", _I, _P, _S, _I)
_proto("asc_local_sub", _I, _L, _Z, _Z, _L)
_proto("asc_core_gm_buffer", _I, _P, _P, _Z, _S)
_proto("asc_que_events", _I, _I, ctypes.POINTER(_I), ctypes.POINTER(_I))

libc = ctypes.CDLL(None, use_errno=True)
libc.free.restype = None
libc.free.argtypes = [ctypes.c_void_p]

def take_report(ptr: ctypes.c_void_p) -> Optional[str]:
    """The text of a report asc_launch_run() returned, freed."""
    if not ptr.value:
        return None
    text = ctypes.string_at(ptr.value).decode("utf-8", "replace")
    libc.free(ptr)
    return text


def version() -> str:
    """libasc's package version, asc_version_string()."""
    return lib.asc_version_string().decode()

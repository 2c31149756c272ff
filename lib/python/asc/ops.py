# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's data_copy and vector operations, each issued to its pipe.

data_copy GM -> local runs on MTE2, local -> GM on MTE3; add, mul, muls,
duplicate and bilinear_interpolation run on V.  Each declares the bytes it reads and writes, so
that the core runtime's detector sees a missing sync.  Only the ``count``
forms of pyasc's overloads exist here.

data_copy, add, mul, muls and duplicate of libasc's dtypes are libasc's
ops (asc_core_issue_op()): the pipe runs them in C, with no call back into
Python.  Their arguments for libasc are made once per core for the same
tensors, count and pipe (Core.ops).  What libasc's ops do not cover runs
as numpy on the pipe, a Python callback: another dtype (bool), a count
past a tensor's end (the memory checks refuse it), a dst that partly
overlaps a source (numpy reads the sources first), bilinear_interpolation.
"""

from __future__ import annotations

import ctypes
import errno
import os
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _libasc, speedups
from .enums import PipeID
from .errors import OutOfBoundsError
from .runtime import _local, current_core, issue
from .tensor import GlobalTensor, LocalTensor, _Tensor
from .where import call_site

Number = Union[int, float]


def _span(t: _Tensor, n: int) -> Tuple[Any, bool]:
    """The bytes of ``n`` elements of ``t`` from its start: its view's, or,
    when they run past its end, (address, bytes) and True."""
    view = t._view()
    if n <= view.size:
        return view[:n], False
    return (view.ctypes.data, n * view.itemsize), True


def _past(api: str, pipe: PipeID, tensors: Sequence[Tuple[_Tensor, bool]], n: int) -> None:
    """``n`` elements run past a tensor the memory checks of libasc know no
    bounds of (a LocalTensor made at an address, a GlobalTensor's own
    buffer): raise what they would."""
    core = current_core(api)
    file, line = call_site()
    at = f" at {os.path.basename(file.decode())}:{line}" if file else ""
    for t, write in tensors:
        have = t._view().nbytes
        want = n * t._view().itemsize
        if want > have:
            raise OutOfBoundsError(
                errno.EFAULT, api,
                f"out of bounds: {api} on {pipe.name[5:]} of core {core.block_idx} "
                f"{'writes' if write else 'reads'} \"{t.name}\" [0+{want}], past its {have} bytes{at}")


def _issue_checked(api: str, pipe: PipeID, fn, operands: Sequence[Tuple[_Tensor, bool]],
                   n: int, extra: Sequence[Any] = ()) -> None:
    """Issue ``fn`` over ``n`` elements of each operand (tensor, written):
    past a tensor's end the access is declared as the kernel asked, and the
    memory checks refuse it."""
    spans = [_span(t, n) for t, _ in operands]
    acc = [(a, w, t.name) for (a, _), (t, w) in zip(spans, operands)] + list(extra)
    if not any(over for _, over in spans):
        issue(pipe, lambda: fn(*[a for a, _ in spans]), api, acc)
        return
    issue(pipe, lambda: None, api, acc)
    _past(api, pipe, operands, n)


def _same_dtype(api: str, *tensors: _Tensor) -> None:
    kinds = {t._view().dtype for t in tensors}
    if len(kinds) > 1:
        raise TypeError(f"{api}: tensors of different dtypes: " + ", ".join(sorted(str(k) for k in kinds)))


#: The ops' arguments a core keeps (Core.ops) before it forgets them all.
_OPS_KEPT = 4096
#: libasc's enum asc_dtype of each numpy dtype its ops compute in.
_DTYPES = {np.dtype(name): code for code, name in enumerate(_libasc.DTYPES, 1)}
#: Called with its arguments converted (_libasc.raw): core.cptr, ints, a
#: pointer to the op, the accesses, bytes.
_issue_op_at = _libasc.raw.asc_core_issue_op_at
#: The same call in C at the kernel's line (asc._speedups), or None.
_issue_op = speedups.module.issue_op if speedups.module is not None else None
_MTE2, _MTE3, _V = int(PipeID.PIPE_MTE2), int(PipeID.PIPE_MTE3), int(PipeID.PIPE_V)


def _partly(a: int, b: int, nbytes: int) -> bool:
    """Whether ``nbytes`` at ``a`` and at ``b`` overlap, ``a`` not at ``b``."""
    return a != b and a < b + nbytes and b < a + nbytes


def _checked(api: str, pipe: int, kind: int, dst: _Tensor, srcs: tuple, n: int,
             scalar: Any) -> Optional[tuple]:
    """The operands (dst's, each source's or None) of ``kind`` over ``n``
    (> 0) elements when libasc's op runs it; else, the op issued as numpy
    on the pipe (see the top), None.  Written out for each operand: a loop
    or generator costs more."""
    d = dst._operand()
    dtype = d[2]
    nbytes = n * dtype.itemsize
    ok = nbytes <= d[1] and dtype in _DTYPES
    vector = kind != _libasc.OP_COPY
    a = b = None
    if srcs:
        a = srcs[0]._operand()
        if a[2] is not dtype and a[2] != dtype:
            _same_dtype(api, dst, *srcs)
        ok = ok and nbytes <= a[1] and not (vector and _partly(d[0], a[0], nbytes))
        if len(srcs) > 1:
            b = srcs[1]._operand()
            if b[2] is not dtype and b[2] != dtype:
                _same_dtype(api, dst, *srcs)
            ok = ok and nbytes <= b[1] and not _partly(d[0], b[0], nbytes)
    if not ok:
        _numpy(api, pipe, kind, dst, srcs, n, scalar)
        return None
    return d, a, b


def _op(api: str, what: bytes, pipe: int, kind: int, dst: _Tensor, srcs: tuple,
        count: int, scalar: Any) -> None:
    """Issue ``kind`` over ``count`` elements of ``dst`` and ``srcs`` (at
    most two) as libasc's op; else as numpy on the pipe (see the top)."""
    core = getattr(_local, "core", None)
    if core is None or core.cancelled:
        core = current_core(api)
    n = int(count)
    if n <= 0:
        raise ValueError(f"{api}: count must be positive, not {n}")
    operands = _checked(api, pipe, kind, dst, srcs, n, scalar)
    if operands is None:
        return
    d, a, b = operands
    key = (kind, pipe, n, d, a, b)
    made = core.ops.get(key)
    if made is None:
        if len(core.ops) >= _OPS_KEPT:
            core.ops.clear()
        made = core.ops[key] = _op_args(kind, d, a, b, n)
    if scalar is not None:
        made[0].u = _scalar(kind, d[2], scalar)
    if _issue_op is not None:
        _issue_op(core.ptr, pipe, made[4], what, made[5], made[3], api)
        return
    file, line = call_site()
    rc = _issue_op_at(core.cptr, pipe, made[1], what, made[2], made[3], file, line)
    if rc < 0:
        core.check(rc, api)


def _op_args(kind: int, d, a, b, n: int) -> tuple:
    """(struct asc_op, a pointer to it, its accesses, how many, the
    addresses of the op and of the accesses) of an op: the sources read,
    dst written."""
    op = _libasc.Op(kind=kind, dtype=_DTYPES[d[2]], dst=d[0], count=n)
    nbytes = n * d[2].itemsize
    rows = [(d, 1)]
    if a is not None:
        op.src0 = a[0]
        rows.insert(-1, (a, 0))
    if b is not None:
        op.src1 = b[0]
        rows.insert(-1, (b, 0))
    acc = (_libasc.Access * len(rows))()
    for e, (o, write) in zip(acc, rows):
        e.addr, e.size, e.write, e.name = o[0], nbytes, write, o[3]
    return op, ctypes.byref(op), acc, len(rows), ctypes.addressof(op), ctypes.addressof(acc)


#: The bits of a 64-bit union member, for the scalar of struct asc_op.
_U64 = np.dtype(np.uint64)


def _scalar(kind: int, dtype: np.dtype, scalar: Any) -> int:
    """The scalar of muls (numpy's conversion of np.asarray()) or duplicate
    (that of fill()) of ``dtype``, as the bits of asc_op's i or f."""
    if kind == _libasc.OP_MULS:
        value = np.asarray(scalar, dtype=dtype)
    else:
        value = np.empty(1, dtype=dtype)
        value.fill(scalar)
        value = value[0]
    if dtype.kind == "f":
        return int(np.float64(value).view(_U64))
    return int(value) & 0xFFFF_FFFF_FFFF_FFFF


def _numpy(api: str, pipe: int, kind: int, dst: _Tensor, srcs: tuple, n: int,
           scalar: Any) -> None:
    """The op as numpy on the pipe, a Python callback (what libasc's ops do not cover)."""
    if kind == _libasc.OP_COPY:
        fn = lambda s, d: np.copyto(d, s)  # noqa: E731
    elif kind == _libasc.OP_ADD:
        fn = lambda a, b, d: np.add(a, b, out=d)  # noqa: E731
    elif kind == _libasc.OP_MUL:
        fn = lambda a, b, d: np.multiply(a, b, out=d)  # noqa: E731
    elif kind == _libasc.OP_MULS:
        fn = lambda a, d: np.multiply(a, np.asarray(scalar, dtype=d.dtype), out=d)  # noqa: E731
    else:
        fn = lambda d: d.fill(scalar)  # noqa: E731
    _issue_checked(api, PipeID(pipe), fn, [(t, False) for t in srcs] + [(dst, True)], n)


def py_data_copy(dst: _Tensor, src: _Tensor, count: int) -> None:
    """Copy ``count`` elements: GM to local on MTE2, local to GM on MTE3."""
    if type(dst) is LocalTensor and type(src) is GlobalTensor:
        pipe = _MTE2
    elif type(dst) is GlobalTensor and type(src) is LocalTensor:
        pipe = _MTE3
        if dst.data is None:
            current_core("data_copy")
            dst._bind_scratch(src._operand()[2], int(count))
    else:
        current_core("data_copy")
        raise TypeError("data_copy: only GlobalTensor to LocalTensor and LocalTensor to GlobalTensor")
    _op("data_copy", b"data_copy", pipe, _libasc.OP_COPY, dst, (src,), count, None)


def _locals(api: str, *tensors: Any) -> None:
    """Raise pyasc's TypeError unless every operand is a LocalTensor."""
    for t in tensors:
        if not isinstance(t, LocalTensor):
            current_core(api)
            raise TypeError(f"{api}: operands must be LocalTensors")


def py_add(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int,
           is_set_mask: bool = True) -> None:
    """dst = src0 + src1, ``count`` elements, on V."""
    if type(dst) is not LocalTensor or type(src0) is not LocalTensor or type(src1) is not LocalTensor:
        _locals("add", dst, src0, src1)
    _op("add", b"add", _V, _libasc.OP_ADD, dst, (src0, src1), count, None)


def py_mul(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int,
           is_set_mask: bool = True) -> None:
    """dst = src0 * src1, ``count`` elements, on V."""
    if type(dst) is not LocalTensor or type(src0) is not LocalTensor or type(src1) is not LocalTensor:
        _locals("mul", dst, src0, src1)
    _op("mul", b"mul", _V, _libasc.OP_MUL, dst, (src0, src1), count, None)


def muls(dst: LocalTensor, src: LocalTensor, scalar: Number, count: int,
         is_set_mask: bool = True) -> None:
    """dst = src * scalar, ``count`` elements, on V."""
    if type(dst) is not LocalTensor or type(src) is not LocalTensor:
        _locals("muls", dst, src)
    _op("muls", b"muls", _V, _libasc.OP_MULS, dst, (src,), count, scalar)


def duplicate(dst: LocalTensor, scalar: Number, count: int) -> None:
    """dst = scalar, ``count`` elements, on V."""
    if type(dst) is not LocalTensor:
        _locals("duplicate", dst)
    _op("duplicate", b"duplicate", _V, _libasc.OP_DUPLICATE, dst, (), count, scalar)


#: Bytes of a data block, the unit of the vector unit's strides.
BLOCK_BYTES = 32


def _uint(api: str, what: str, value: Any, lo: int, hi: int) -> int:
    value = int(value)
    if not lo <= value <= hi:
        raise ValueError(f"{api}: {what} {value} out of range {lo}..{hi}")
    return value


def bilinear_interpolation(dst: LocalTensor, src0: LocalTensor, src0_offset: LocalTensor,
                           src1: LocalTensor, mask: int, h_repeat: int, repeat_mode: bool,
                           dst_blk_stride: int, v_r_offset: int, v_repeat: int,
                           shared_tmp_buffer: LocalTensor) -> None:
    """BilinearInterpolation on V: ``v_repeat`` x ``h_repeat`` iterations of 8 blocks.

    Iteration k (k = v * h_repeat + h) takes the 8 data blocks (32 bytes)
    of ``src0`` at the byte offsets ``src0_offset[8k:8k+8]`` (uint32),
    multiplies each by ``src1[k]`` (``repeat_mode`` False) or block b by
    ``src1[8k+b]`` (True), and adds the products into dst's 8 blocks
    from element ``v * v_r_offset``, ``dst_blk_stride`` blocks apart (the
    first iteration of each vertical one, h = 0, writes them).  ``mask``
    is the count form: the first ``mask`` elements of the iteration's
    8 blocks (1..elements in 8 blocks); the bit-mask form is not emulated.
    ``shared_tmp_buffer`` is the chip's scratch, declared written.  V reads
    the offsets when it runs the instruction: one that is no block of
    ``src0`` raises ValueError there, which the launch raises.
    """
    api = "bilinear_interpolation"
    current_core(api)
    tensors = (dst, src0, src0_offset, src1, shared_tmp_buffer)
    if not all(isinstance(t, LocalTensor) for t in tensors):
        raise TypeError(f"{api}: operands must be LocalTensors")
    if isinstance(mask, (list, tuple)):
        raise NotImplementedError(f"{api}: the bit-mask form of mask is not emulated; give a count")
    _same_dtype(api, dst, src0, src1)
    d, s0, off, s1 = dst._view(), src0._view(), src0_offset._view(), src1._view()
    if d.dtype != np.float16:
        raise TypeError(f"{api}: dst, src0 and src1 must be half, not {d.dtype}")
    if off.dtype != np.uint32:
        raise TypeError(f"{api}: src0_offset must be uint32, not {off.dtype}")
    per_block = BLOCK_BYTES // d.itemsize
    mask = _uint(api, "mask", mask, 1, 8 * per_block)
    h_repeat = _uint(api, "h_repeat", h_repeat, 1, 255)
    v_repeat = _uint(api, "v_repeat", v_repeat, 1, 255)
    dst_blk_stride = _uint(api, "dst_blk_stride", dst_blk_stride, 0, 65535)
    v_r_offset = _uint(api, "v_r_offset", v_r_offset, 0, 65535)
    iters = h_repeat * v_repeat
    need = {src0_offset.name: (off.size, 8 * iters),
            src1.name: (s1.size, 8 * iters if repeat_mode else iters)}
    dst_end = (v_repeat - 1) * v_r_offset + 7 * dst_blk_stride * per_block + per_block
    need[dst.name] = (d.size, dst_end)
    for name, (have, want) in need.items():
        if have < want:
            raise ValueError(f"{api}: {name} has {have} elements, {want} needed")
    off_used = off[:8 * iters]
    s1_used = s1[:need[src1.name][1]]
    d_used = d[:dst_end]
    tmp = shared_tmp_buffer._view()
    src0_name = src0.name

    def run() -> None:
        offsets = off_used.astype(np.int64)
        bad = [int(o) for o in offsets if o % BLOCK_BYTES or o + BLOCK_BYTES > s0.nbytes]
        if bad:
            raise ValueError(f"{api}: src0_offset {bad[0]} is not a {BLOCK_BYTES}-byte block "
                             f"of the {s0.nbytes} bytes of {src0_name}")
        for k in range(iters):
            v, h = divmod(k, h_repeat)
            for b in range(8):
                first = b * per_block
                n = min(per_block, mask - first)
                if n <= 0:
                    break
                o = int(offsets[8 * k + b]) // d.itemsize
                factor = s1_used[8 * k + b] if repeat_mode else s1_used[k]
                prod = s0[o:o + n] * factor
                at = v * v_r_offset + b * dst_blk_stride * per_block
                if h == 0:
                    d_used[at:at + n] = prod
                else:
                    d_used[at:at + n] += prod
    acc = [(s0, False, src0.name), (off_used, False, src0_offset.name),
           (s1_used, False, src1.name), (d_used, True, dst.name),
           (tmp, True, shared_tmp_buffer.name)]
    issue(PipeID.PIPE_V, run, api, acc)


#: The calls of kernels: those of asc._speedups, which hand whatever is
#: not their common case to the Python ones above, else those.
data_copy, add, mul = py_data_copy, py_add, py_mul
if speedups.module is not None:
    speedups.module.bind_ops(LocalTensor, GlobalTensor, _checked, _op_args,
                             {"data_copy": py_data_copy, "add": py_add, "mul": py_mul},
                             _OPS_KEPT)
    data_copy = speedups.module.data_copy
    add = speedups.module.add
    mul = speedups.module.mul

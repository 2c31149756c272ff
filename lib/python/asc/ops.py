# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's data_copy and vector operations, each issued to its pipe.

data_copy GM -> local runs on MTE2, local -> GM on MTE3; add, mul, muls
and duplicate run on V.  Each declares the bytes it reads and writes, so
that the core runtime's detector sees a missing sync.  Only the ``count``
forms of pyasc's overloads exist here.
"""

from __future__ import annotations

from typing import Union

import numpy as np

from .enums import PipeID
from .runtime import current_core, issue
from .tensor import GlobalTensor, LocalTensor, _Tensor

Number = Union[int, float]


def _count(api: str, count: int, *tensors: _Tensor) -> int:
    count = int(count)
    if count <= 0:
        raise ValueError(f"{api}: count must be positive, not {count}")
    for t in tensors:
        if count > t.get_size():
            raise ValueError(f"{api}: count {count} exceeds the {t.get_size()} elements of {t.name}")
    return count


def _same_dtype(api: str, *tensors: _Tensor) -> None:
    kinds = {t._view().dtype for t in tensors}
    if len(kinds) > 1:
        raise TypeError(f"{api}: tensors of different dtypes: " + ", ".join(sorted(str(k) for k in kinds)))


def data_copy(dst: _Tensor, src: _Tensor, count: int) -> None:
    """Copy ``count`` elements: GM to local on MTE2, local to GM on MTE3."""
    current_core("data_copy")
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        pipe = PipeID.PIPE_MTE2
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        pipe = PipeID.PIPE_MTE3
        dst._bind_scratch(src._view().dtype, int(count))
    else:
        raise TypeError("data_copy: only GlobalTensor to LocalTensor and LocalTensor to GlobalTensor")
    _same_dtype("data_copy", dst, src)
    n = _count("data_copy", count, dst, src)
    d, s = dst._view()[:n], src._view()[:n]
    issue(pipe, lambda: np.copyto(d, s), "data_copy", [(s, False, src.name), (d, True, dst.name)])


def _vector(api: str, dst: LocalTensor, srcs: tuple, count: int, fn) -> None:
    current_core(api)
    for t in (dst,) + srcs:
        if not isinstance(t, LocalTensor):
            raise TypeError(f"{api}: operands must be LocalTensors")
    _same_dtype(api, dst, *srcs)
    n = _count(api, count, dst, *srcs)
    d = dst._view()[:n]
    s = [t._view()[:n] for t in srcs]
    acc = [(v, False, t.name) for v, t in zip(s, srcs)] + [(d, True, dst.name)]
    issue(PipeID.PIPE_V, lambda: fn(d, *s), api, acc)


def add(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int,
        is_set_mask: bool = True) -> None:
    """dst = src0 + src1, ``count`` elements, on V."""
    _vector("add", dst, (src0, src1), count, lambda d, a, b: np.add(a, b, out=d))


def mul(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int,
        is_set_mask: bool = True) -> None:
    """dst = src0 * src1, ``count`` elements, on V."""
    _vector("mul", dst, (src0, src1), count, lambda d, a, b: np.multiply(a, b, out=d))


def muls(dst: LocalTensor, src: LocalTensor, scalar: Number, count: int,
         is_set_mask: bool = True) -> None:
    """dst = src * scalar, ``count`` elements, on V."""
    _vector("muls", dst, (src,), count,
            lambda d, a: np.multiply(a, np.asarray(scalar, dtype=d.dtype), out=d))


def duplicate(dst: LocalTensor, scalar: Number, count: int) -> None:
    """dst = scalar, ``count`` elements, on V."""
    _vector("duplicate", dst, (), count, lambda d: d.fill(scalar))

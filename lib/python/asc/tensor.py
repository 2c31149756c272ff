# SPDX-License-Identifier: LGPL-2.1-or-later
"""A small numpy-backed tensor layer with pyasc's names.

GlobalTensor is a view of global memory, the numpy arrays a kernel was
launched with (each becomes a :class:`GlobalAddress`).  LocalTensor is a
view of the Unified Buffer of the core running the kernel (UB_SIZE bytes,
positions VECIN, VECOUT and VECCALC), at a byte address: two tensors at
overlapping addresses share their bytes, as on the chip.  get_value and
set_value run on S and declare the element they touch.
"""

from __future__ import annotations

from typing import Optional, Union

import numpy as np

from .enums import PipeID, TPosition
from .runtime import issue, current_core

Number = Union[int, float]


class DataType:
    """pyasc's DataType: an element type by name, e.g. DataType("float32")."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.np = np.dtype(name)

    def sizeof(self) -> int:
        """Bytes per element."""
        return self.np.itemsize

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DataType) and other.np == self.np

    def __hash__(self) -> int:
        return hash(self.np)

    def __repr__(self) -> str:
        return f"DataType({self.name!r})"


int8 = DataType("int8")
int16 = DataType("int16")
int32 = DataType("int32")
int64 = DataType("int64")
uint8 = DataType("uint8")
uint16 = DataType("uint16")
uint32 = DataType("uint32")
uint64 = DataType("uint64")
float16 = DataType("float16")
float32 = DataType("float32")
float64 = DataType("float64")
half = float16
float_ = float32
double = float64
int_ = int32


class GlobalAddress:
    """A typed address in global memory: an array argument of a kernel."""

    def __init__(self, array: np.ndarray, offset: int = 0) -> None:
        if not array.flags.c_contiguous:
            raise ValueError("a kernel's array arguments must be C-contiguous")
        self.array = array.reshape(-1)
        self.offset = offset
        self.dtype = DataType(array.dtype.name)

    def __add__(self, n: int) -> "GlobalAddress":
        return GlobalAddress(self.array, self.offset + int(n))


class _Tensor:
    """What GlobalTensor and LocalTensor share: a 1-D numpy view."""

    data: Optional[np.ndarray]
    name: str

    def _view(self) -> np.ndarray:
        raise NotImplementedError

    @property
    def dtype(self) -> DataType:
        return DataType(self._view().dtype.name)

    def get_size(self) -> int:
        """Number of elements."""
        return self._view().size

    def _slice(self, start: int) -> np.ndarray:
        view = self._view()
        if not 0 <= start <= view.size:
            raise IndexError(f"{self.name}: offset {start} out of range 0..{view.size}")
        return view[start:]

    @staticmethod
    def _start(key: object, kind: str) -> int:
        if isinstance(key, slice):
            if key.step is not None or key.stop is not None:
                raise RuntimeError(f"Slice operation with provided stop and step is not supported for {kind}")
            return int(key.start or 0)
        if isinstance(key, (int, np.integer)):
            return int(key)
        raise RuntimeError(f"Tensor subscript operation is not supported with {key}")

    def get_value(self, index: int) -> Number:
        """The element at ``index``, read by the scalar (on S)."""
        view = self._view()
        index = int(index)
        if not 0 <= index < view.size:
            raise IndexError(f"{self.name}: index {index} out of range 0..{view.size - 1}")
        out = []
        elem = view[index:index + 1]
        issue(PipeID.PIPE_S, lambda: out.append(elem[0].item()), "get_value", [(elem, False, self.name)])
        return out[0]

    def set_value(self, index: int, value: Number) -> None:
        """Store ``value`` at ``index`` on S (posted: S_* flags order it)."""
        view = self._view()
        index = int(index)
        if not 0 <= index < view.size:
            raise IndexError(f"{self.name}: index {index} out of range 0..{view.size - 1}")
        elem = view[index:index + 1]

        def store() -> None:
            elem[0] = value
        issue(PipeID.PIPE_S, store, "set_value", [(elem, True, self.name)])


class GlobalTensor(_Tensor):
    """A view of global memory, set with set_global_buffer().

    A GlobalTensor never given a buffer gets one of its own, zeroed, the
    first time an operation uses it, as large as that operation needs.
    """

    def __init__(self) -> None:
        self.data: Optional[np.ndarray] = None
        self.name = "GM"

    def set_global_buffer(self, buffer: Optional[GlobalAddress] = None,
                          buffer_size: Optional[int] = None) -> None:
        """View ``buffer_size`` elements (default: all) from ``buffer``."""
        if buffer is None or buffer.dtype is None:
            raise ValueError("Either DataType or typed GlobalAddress must be provided to instantiate GlobalTensor")
        end = None if not buffer_size else buffer.offset + int(buffer_size)
        if end is not None and end > buffer.array.size:
            raise ValueError(f"buffer_size {buffer_size} goes past the end of the array")
        self.data = buffer.array[buffer.offset:end]

    def _view(self) -> np.ndarray:
        if self.data is None:
            raise ValueError("GlobalTensor has no buffer: call set_global_buffer()")
        return self.data

    def _bind_scratch(self, dtype: np.dtype, count: int) -> None:
        if self.data is None:
            self.data = np.zeros(count, dtype=dtype)

    def __getitem__(self, key: object) -> "GlobalTensor":
        t = GlobalTensor()
        t.data = self._slice(self._start(key, "GlobalTensor"))
        return t


class LocalTensor(_Tensor):
    """A view of the core's Unified Buffer: ``tile_size`` elements at byte ``addr``.

    LocalTensor() is float32 over the whole buffer; ``tile_size`` 0 is the
    rest of the buffer from ``addr``.
    """

    def __init__(self, dtype: Optional[DataType] = None, pos: TPosition = TPosition.VECIN,
                 addr: int = 0, tile_size: int = 0) -> None:
        core = current_core("LocalTensor")
        dtype = dtype or float32
        pos = TPosition(pos)
        if pos not in (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC):
            raise ValueError("only VECIN, VECOUT and VECCALC tensors are emulated")
        size = dtype.sizeof()
        if addr < 0 or addr % size:
            raise ValueError(f"addr {addr} is not a multiple of {size}")
        n = int(tile_size) if tile_size else (core.ub.size - addr) // size
        if n <= 0 or addr + n * size > core.ub.size:
            raise ValueError(f"{n} elements at {addr} do not fit the {core.ub.size}-byte Unified Buffer")
        self.pos = pos
        self.addr = addr
        self.data = core.ub[addr:addr + n * size].view(dtype.np)
        self.name = f"{pos.name}@{addr}"

    def _view(self) -> np.ndarray:
        return self.data

    def get_position(self) -> TPosition:
        """The tensor's TPosition."""
        return self.pos

    def get_phy_addr(self, offset: int = 0) -> int:
        """Byte address in the Unified Buffer of element ``offset``."""
        return self.addr + int(offset) * self.data.itemsize

    def __getitem__(self, key: object) -> "LocalTensor":
        start = self._start(key, "LocalTensor")
        t = LocalTensor.__new__(LocalTensor)
        t.pos = self.pos
        t.data = self._slice(start)
        t.addr = self.addr + start * self.data.itemsize
        t.name = f"{self.pos.name}@{t.addr}"
        return t

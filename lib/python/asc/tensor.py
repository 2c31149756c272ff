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

import ctypes
from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _libasc
from .enums import PipeID, TPosition
from .runtime import _encoded, _local as _runtime_local, issue, current_core
from .where import assigned_name

Number = Union[int, float]

#: The positions of the Unified Buffer, the local memory emulated.
LOCAL_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)


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

    def __init__(self, array: np.ndarray, offset: int = 0, name: str = "GM") -> None:
        if not array.flags.c_contiguous:
            raise ValueError("a kernel's array arguments must be C-contiguous")
        self.array = array.reshape(-1)
        self.offset = offset
        self.dtype = DataType(array.dtype.name)
        #: The kernel's parameter it came from, for the memory checks.
        self.name = name

    def __add__(self, n: int) -> "GlobalAddress":
        return GlobalAddress(self.array, self.offset + int(n), self.name)


#: What an op of libasc is given of a tensor: (address, bytes, dtype, name).
Operand = Tuple[int, int, np.dtype, bytes]


class _Tensor:
    """What GlobalTensor and LocalTensor share: a 1-D numpy view."""

    data: Optional[np.ndarray]
    name: str
    #: _operand(), and what it was made of.
    _opc: Optional[Operand] = None
    _opk: Optional[tuple] = None

    def _operand(self) -> Operand:
        """(address, bytes, dtype, name as libasc takes it) of the tensor's
        view, for the ops libasc runs; made again only when the tensor changed."""
        raise NotImplementedError

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
    first time an operation uses it, as large as that operation needs.  It
    is named after the variable it is assigned to (``z_gm``), else "GM".
    """

    def __init__(self) -> None:
        self.data: Optional[np.ndarray] = None
        self.name = assigned_name() or "GM"

    def set_global_buffer(self, buffer: Optional[GlobalAddress] = None,
                          buffer_size: Optional[int] = None) -> None:
        """View ``buffer_size`` elements (default: all) from ``buffer``."""
        if buffer is None or buffer.dtype is None:
            raise ValueError("Either DataType or typed GlobalAddress must be provided to instantiate GlobalTensor")
        end = None if not buffer_size else buffer.offset + int(buffer_size)
        if end is not None and end > buffer.array.size:
            raise ValueError(f"buffer_size {buffer_size} goes past the end of the array")
        self.data = buffer.array[buffer.offset:end]
        core = getattr(_runtime_local, "core", None)
        if end is not None and core is not None and self.data.nbytes:
            core.check(_libasc.lib.asc_core_gm_buffer(core.ptr, self.data.ctypes.data,
                                                      self.data.nbytes, self.name.encode()),
                       "set_global_buffer")

    def _view(self) -> np.ndarray:
        if self.data is None:
            raise ValueError("GlobalTensor has no buffer: call set_global_buffer()")
        return self.data

    def _operand(self) -> Operand:
        data, name = self.data, self.name
        key = self._opk
        if key is not None and key[0] is data and key[1] is name:
            return self._opc
        view = self._view()
        self._opc = (view.ctypes.data, view.nbytes, view.dtype, _encoded(name))
        self._opk = (data, name)
        return self._opc

    def _bind_scratch(self, dtype: np.dtype, count: int) -> None:
        if self.data is None:
            self.data = np.zeros(count, dtype=dtype)

    def __getitem__(self, key: object) -> "GlobalTensor":
        t = GlobalTensor.__new__(GlobalTensor)
        t.data = self._slice(self._start(key, "GlobalTensor"))
        t.name = self.name
        return t


class LocalTensor(_Tensor):
    """A view of the core's Unified Buffer: ``tile_size`` elements at byte ``addr``.

    LocalTensor() is float32 over the whole buffer; ``tile_size`` 0 is the
    rest of the buffer from ``addr``.  As on the chip a LocalTensor is an
    address, a length in bytes (get_length()) and a position, and, when a
    TQue or TBuf handed it out, the buffer it belongs to (which holds its
    user tag); set_size(), set_buffer_len(), set_addr_with_offset() and
    reinterpret_cast() change or copy those, never the bytes.
    """

    def __init__(self, dtype: Optional[DataType] = None, pos: TPosition = TPosition.VECIN,
                 addr: int = 0, tile_size: int = 0) -> None:
        core = current_core("LocalTensor")
        dtype = dtype or float32
        pos = TPosition(pos)
        if pos not in LOCAL_POSITIONS:
            raise ValueError("only VECIN, VECOUT and VECCALC tensors are emulated")
        size = dtype.sizeof()
        addr = int(addr)
        if addr < 0 or addr % size:
            raise ValueError(f"addr {addr} is not a multiple of {size}")
        n = int(tile_size) if tile_size else (core.ub.size - addr) // size
        self._set(core, dtype.np, pos, addr, n * size, None, None)
        self._check_fits("LocalTensor")

    def _set(self, core, np_dtype: np.dtype, pos: TPosition, addr: int, nbytes: int,
             buf: Optional[Any], label: Optional[str], mem: Optional[np.ndarray] = None,
             local: Optional[_libasc.Local] = None) -> None:
        self._core = core
        #: The bytes of the local memory the tensor is in (the Unified Buffer).
        self._mem = core.ub if mem is None else mem
        self._np = np.dtype(np_dtype)
        self.pos = pos
        #: Byte offset in that memory.
        self.addr = addr
        self.nbytes = nbytes
        #: The queue's or TBuf's buffer that handed the tensor out, or None.
        self.buf = buf
        self.label = label
        #: libasc's struct asc_local of that buffer, or None.
        self._local = local
        self._opk = None

    @classmethod
    def _make(cls, core, np_dtype: np.dtype, pos: TPosition, addr: int, nbytes: int,
              buf: Optional[Any] = None, label: Optional[str] = None,
              mem: Optional[np.ndarray] = None,
              local: Optional[_libasc.Local] = None) -> "LocalTensor":
        """A tensor at ``addr`` (used by the queues), without the checks of __init__."""
        t = cls.__new__(cls)
        t._set(core, np_dtype, pos, addr, nbytes, buf, label, mem, local)
        return t

    def _copy(self) -> "LocalTensor":
        return LocalTensor._make(self._core, self._np, self.pos, self.addr, self.nbytes,
                                 self.buf, self.label, self._mem, self._local)

    def _become(self, other: "LocalTensor") -> None:
        """Take ``other``'s address, length, position and buffer (pyasc's in-place forms)."""
        self._set(other._core, other._np, other.pos, other.addr, other.nbytes, other.buf,
                  other.label, other._mem, other._local)

    def _as_local(self) -> _libasc.Local:
        """The struct asc_local libasc knows the tensor by: its part of its buffer,
        or, for a tensor made at an address, its bytes alone."""
        base = self._local
        if base is None:
            return _libasc.Local(addr=self._mem.ctypes.data + self.addr, size=self.nbytes,
                                 pos=int(self.pos), mem=_libasc.MEM_UB, offset=self.addr,
                                 buf=-1)
        part = _libasc.Local()
        off = self.addr - int(base.offset)
        if off < 0 or _libasc.lib.asc_local_sub(ctypes.byref(base), off, self.nbytes,
                                                ctypes.byref(part)) < 0:
            return base
        return part

    def _check_fits(self, api: str) -> None:
        size = self._mem.size
        if self.nbytes <= 0 or self.addr + self.nbytes > size:
            where = "Unified Buffer" if self._mem is self._core.ub else "local memory"
            raise ValueError(f"{api}: {self.nbytes} bytes at {self.addr} do not fit "
                             f"the {size}-byte {where}")

    @property
    def name(self) -> str:
        """The tensor in reports: its variable and queue, else POSITION@addr."""
        return self.label or f"{self.pos.name}@{self.addr}"

    def _view(self) -> np.ndarray:
        if not self._core.alive:
            raise RuntimeError(f"{self.name}: a LocalTensor is local memory of its kernel's "
                               "core: it is gone once the kernel has returned")
        n = self.nbytes // self._np.itemsize
        return self._mem[self.addr:self.addr + n * self._np.itemsize].view(self._np)

    def _operand(self) -> Operand:
        """As _Tensor's: a LocalTensor changes only through _set() and
        _resize(), which forget it (asc._speedups' ops take _opc while
        there is an _opk and the core is alive)."""
        if not self._core.alive:
            self._view()
        if self._opk is not None:
            return self._opc
        view = self._view()
        self._opc = (view.ctypes.data, view.nbytes, view.dtype, _encoded(self.name))
        self._opk = (self.addr, self.nbytes, self._np, self.label)
        return self._opc

    def get_position(self) -> TPosition:
        """The tensor's TPosition."""
        return self.pos

    def get_length(self) -> int:
        """The tensor's length in bytes."""
        return self.nbytes

    def get_size(self) -> int:
        """The tensor's length in elements."""
        return self.nbytes // self._np.itemsize

    def set_size(self, size: int = 0) -> None:
        """Make the tensor ``size`` elements long (within the Unified Buffer)."""
        self._resize("set_size", int(size) * self._np.itemsize)

    def set_buffer_len(self, data_len: int) -> None:
        """Make the tensor ``data_len`` bytes long (within the Unified Buffer)."""
        self._resize("set_buffer_len", int(data_len))

    def _resize(self, api: str, nbytes: int) -> None:
        old = self.nbytes
        self.nbytes = nbytes
        self._opk = None
        try:
            self._check_fits(api)
        except ValueError:
            self.nbytes = old
            raise

    def reinterpret_cast(self, dtype: DataType) -> "LocalTensor":
        """The same bytes (address, length, buffer) as elements of ``dtype``."""
        if not isinstance(dtype, DataType) or dtype.np.kind not in "biuf":
            raise RuntimeError("ReinterpretCast dtype must be integer or float")
        t = self._copy()
        t._np = dtype.np
        t.nbytes = self.get_size() * self._np.itemsize
        return t

    def set_addr_with_offset(self, src: "LocalTensor", offset: int) -> None:
        """Become ``src`` moved by ``offset`` of its elements (its length kept, as on the chip)."""
        if not isinstance(src, LocalTensor):
            raise TypeError("set_addr_with_offset: src must be a LocalTensor")
        addr = src.addr + int(offset) * src._np.itemsize
        if int(offset) < 0 or addr % self._np.itemsize:
            raise ValueError(f"set_addr_with_offset: offset {offset} of {src.name} is not "
                             f"a multiple of {self._np.itemsize} bytes from its start")
        old = self._copy()
        self._become(src)
        self._np, self.addr = old._np, addr
        try:
            self._check_fits("set_addr_with_offset")
        except ValueError:
            self._become(old)
            raise

    def _buffer(self, api: str) -> Any:
        if self.buf is None:
            raise RuntimeError(f"{api}: {self.name} has no buffer of a TQue or TBuf to hold a tag")
        return self.buf

    def set_user_tag(self, tag: int = 0) -> None:
        """Tag the buffer the tensor belongs to (an int32), for get_user_tag()."""
        tag = int(tag)
        if not -2**31 <= tag < 2**31:
            raise ValueError(f"set_user_tag: {tag} is no int32")
        self._buffer("set_user_tag").tag = tag

    def get_user_tag(self) -> int:
        """The tag set_user_tag() gave the tensor's buffer (0 if none)."""
        return self._buffer("get_user_tag").tag

    def get_phy_addr(self, offset: int = 0) -> int:
        """Byte address in the Unified Buffer of element ``offset``."""
        return self.addr + int(offset) * self._np.itemsize

    def __getitem__(self, key: object) -> "LocalTensor":
        start = self._start(key, "LocalTensor")
        if not 0 <= start <= self.get_size():
            raise IndexError(f"{self.name}: offset {start} out of range 0..{self.get_size()}")
        t = self._copy()
        t.addr = self.addr + start * self._np.itemsize
        t.nbytes = self.nbytes - start * self._np.itemsize
        if self.label:
            t.label = f"{self.label}[{start}:]"
        return t

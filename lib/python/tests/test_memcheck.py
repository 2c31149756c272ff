# SPDX-License-Identifier: LGPL-2.1-or-later
"""The memory checks from Python: out of bounds, init_buffer past the Unified
Buffer, misaligned data_copy, uninitialized reads (in the guest)."""

import errno
import inspect
import re

import numpy as np
import pytest

import asc

pytestmark = pytest.mark.device

POS = asc.TPosition


def line_of(fn, text):
    """The line of this file where ``fn``'s source has ``text`` (a unique piece)."""
    lines, first = inspect.getsourcelines(fn)
    hits = [first + i for i, l in enumerate(lines) if text in l]
    assert len(hits) == 1, (text, hits)
    return hits[0]


# ---- out of bounds ----

@asc.jit
def copy_in_kernel(x: asc.GlobalAddress, tile: asc.ConstExpr[int], count: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    pipe = asc.TPipe()
    in_queue_x = asc.TQue(POS.VECIN, 1)
    pipe.init_buffer(que=in_queue_x, num=1, len=tile * 4)
    x_local = in_queue_x.alloc_tensor(asc.float32)
    asc.data_copy(x_local, x_gm, count=count)  # copy in
    in_queue_x.enque(x_local)
    x_local = in_queue_x.deque(asc.float32)
    in_queue_x.free_tensor(x_local)


def test_past_a_local_tensors_buffer():
    x = np.zeros(1024, dtype=np.float32)
    copy_in_kernel[1](x, 256, 256)
    with pytest.raises(asc.OutOfBoundsError) as e:
        copy_in_kernel[1](x, 256, 264)
    line = line_of(copy_in_kernel.fn, "# copy in")
    assert e.value.errno == errno.EFAULT
    assert isinstance(e.value, ValueError)
    first = e.value.report.splitlines()[1]
    assert first == ('out of bounds: #4 data_copy on MTE2 of core 0 writes "in_queue_x[0]" '
                     f'[0+1056], past its 1024 bytes at test_memcheck.py:{line}: '
                     'Bad address'), e.value.report
    assert "0x" not in e.value.report


@asc.jit
def slice_kernel(x: asc.GlobalAddress, block: asc.ConstExpr[int], count: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * block, block)
    pipe = asc.TPipe()
    buf = asc.TBuf(POS.VECCALC)
    pipe.init_buffer(buf=buf, num=4096)
    x_local = buf.get(asc.float32)
    asc.data_copy(x_local, x_gm, count=count)  # past the slice


def test_past_a_global_tensors_slice():
    x = np.zeros(1000, dtype=np.float32)
    with pytest.raises(asc.OutOfBoundsError) as e:
        slice_kernel[1](x, 63, 512)
    line = line_of(slice_kernel.fn, "# past the slice")
    assert ('out of bounds: #4 data_copy on MTE2 of core 0 reads "x_gm" [0+2048], past its '
            f'252 bytes at test_memcheck.py:{line}: Bad address') in e.value.report, e.value.report


# Our own kernel with the pattern of pyasc's generalization test of
# duplicate: 1000 elements on 16 cores, a block of ceil(1000 / 16) = 63
# each, a tile of 512 filled and copied out from the start of each block.
@asc.jit
def fill_kernel(value: float, z: asc.GlobalAddress, block: asc.ConstExpr[int],
                tile: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z + asc.get_block_idx() * block)
    pipe = asc.TPipe()
    out_queue = asc.TQue(POS.VECOUT, 1)
    pipe.init_buffer(que=out_queue, num=1, len=tile * 4)
    z_local = out_queue.alloc_tensor(asc.float32)
    asc.duplicate(z_local, value, count=tile)
    out_queue.enque(z_local)
    z_local = out_queue.deque(asc.float32)
    asc.data_copy(z_gm, z_local, count=tile)  # copy out
    out_queue.free_tensor(z_local)


def test_duplicate_pattern_past_the_end_of_the_array():
    size, cores, tile = 1000, 16, 512
    block = (size + cores - 1) // cores
    z = np.zeros(size, dtype=np.float32)
    with pytest.raises(asc.OutOfBoundsError) as e:
        fill_kernel[cores](1.5, z, block, tile)
    line = line_of(fill_kernel.fn, "# copy out")
    report = e.value.report
    print(report)
    m = re.search(r'out of bounds: #7 data_copy on MTE3 of core (\d+) writes "z_gm" at "z" '
                  r'\[(\d+)\+2048\], past its 4000 bytes at test_memcheck.py:(\d+): Bad address',
                  report)
    assert m, report
    core, offset = int(m.group(1)), int(m.group(2))
    # Cores 8..15 write past the end: 8 * 63 * 4 + 2048 > 4000.
    assert core >= 8 and offset == core * block * 4 and int(m.group(3)) == line


@asc.jit
def own_buffer_kernel(tile: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    buf = asc.TBuf(POS.VECCALC)
    pipe.init_buffer(buf=buf, num=tile * 4)
    a = buf.get(asc.float32)
    b = asc.LocalTensor(asc.float32, POS.VECCALC, 0, 8)
    asc.add(a, a, b, count=tile)  # past b


def test_past_a_local_tensor_made_at_an_address():
    with pytest.raises(asc.OutOfBoundsError) as e:
        own_buffer_kernel[1](64)
    line = line_of(own_buffer_kernel.fn, "# past b")
    assert str(e.value).endswith(f'reads "VECCALC@0" [0+256], past its 32 bytes at '
                                 f'test_memcheck.py:{line}'), str(e.value)


# ---- init_buffer past the capacity (libasc's own check) ----

@asc.jit
def capacity_kernel(length: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    in_queue = asc.TQue(POS.VECIN, 2)
    pipe.init_buffer(que=in_queue, num=2, len=length)  # two buffers


def test_init_buffer_past_the_unified_buffer():
    capacity_kernel[1](96 * 1024)
    with pytest.raises(asc.AscError) as e:
        capacity_kernel[1](96 * 1024 + 1)
    line = line_of(capacity_kernel.fn, "# two buffers")
    assert e.value.errno == errno.ENOBUFS
    assert (f"init_buffer(in_queue, 2, 98305): UB would hold 196672 bytes (the kernel's total), "
            f"past its 196608 at test_memcheck.py:{line}") in e.value.report, e.value.report


# ---- misaligned ----

@asc.jit
def align_kernel(x: asc.GlobalAddress, skip: asc.ConstExpr[int], vector: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    pipe = asc.TPipe()
    buf = asc.TBuf(POS.VECCALC)
    pipe.init_buffer(buf=buf, num=1024)
    x_local = buf.get(asc.float32)
    if vector:
        asc.duplicate(x_local[skip:], 1.0, count=8)
    else:
        asc.data_copy(x_local[skip:], x_gm, count=8)  # misaligned


def test_misaligned_data_copy():
    x = np.zeros(64, dtype=np.float32)
    align_kernel[1](x, 8, False)
    align_kernel[1](x, 4, True)
    with pytest.raises(asc.MisalignedAccessError) as e:
        align_kernel[1](x, 4, False)
    line = line_of(align_kernel.fn, "# misaligned")
    assert ('misaligned: #4 data_copy on MTE2 of core 0 writes "buf[4:]" at "buf" [16+32], '
            f'UB+16 is not on a 32-byte boundary at test_memcheck.py:{line}') in e.value.report


# ---- uninitialized reads ----

@asc.jit
def uninit_kernel(z: asc.GlobalAddress, written: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z + asc.get_block_idx() * 64, 64)
    pipe = asc.TPipe()
    out_queue = asc.TQue(POS.VECOUT, 1)
    pipe.init_buffer(que=out_queue, num=1, len=256)
    z_local = out_queue.alloc_tensor(asc.float32)
    asc.duplicate(z_local, 2.0, count=written)
    out_queue.enque(z_local)
    z_local = out_queue.deque(asc.float32)
    asc.data_copy(z_gm, z_local, count=64)  # reads all 64
    out_queue.free_tensor(z_local)


def test_uninitialized_read_warns(recwarn):
    z = np.zeros(128, dtype=np.float32)
    uninit_kernel[1](z, 64)
    assert not [w for w in recwarn if issubclass(w.category, asc.UninitializedReadWarning)]
    with pytest.warns(asc.UninitializedReadWarning) as got:
        uninit_kernel[2](z, 48)
    line = line_of(uninit_kernel.fn, "# reads all 64")
    text = str(got[0].message)
    assert (f'uninitialized read: #7 data_copy on MTE3 of core 0 reads "out_queue[0]" '
            f'[0+256], 64 of its bytes never written since init_buffer (the first at 192) at '
            f'test_memcheck.py:{line} (a warning)') in text, text
    assert "core 1 (AIV 1):" in text
    assert (z[:48] == 2.0).all() and (z[64:112] == 2.0).all()


def test_uninitialized_read_as_an_error(monkeypatch):
    z = np.zeros(64, dtype=np.float32)
    monkeypatch.setenv("ASC_UNINIT_READS", "error")
    uninit_kernel[1](z, 64)
    with pytest.raises(asc.UninitializedReadError) as e:
        uninit_kernel[1](z, 48)
    assert "uninitialized read: #7 data_copy on MTE3 of core 0" in e.value.report
    assert e.value.report.rstrip().endswith(": Bad address")

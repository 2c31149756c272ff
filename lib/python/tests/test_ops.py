# SPDX-License-Identifier: LGPL-2.1-or-later
"""data_copy, add, mul, muls and duplicate as libasc runs them, against
numpy, and the cases left to numpy on the pipe (in the guest)."""

import numpy as np
import pytest

import asc

pytestmark = pytest.mark.device

HE = asc.HardEvent
N = 40
#: Bytes between the LocalTensors of a test (a 32-byte multiple).
STEP = 1024
SCALAR = 2.7
DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "bool"]


def sync(event):
    asc.set_flag(event, 0)
    asc.wait_flag(event, 0)


def operands(name):
    """Two arrays of N elements of dtype ``name``: every bit pattern for
    the integers, values of both signs (some overflowing half) for floats."""
    rng = np.random.default_rng(7)
    dt = np.dtype(name)
    if dt.kind in "iu":
        return (rng.integers(0, 256, N * dt.itemsize, dtype=np.uint8).view(dt),
                rng.integers(0, 256, N * dt.itemsize, dtype=np.uint8).view(dt))
    if dt.kind == "b":
        return rng.integers(0, 2, N).astype(dt), rng.integers(0, 2, N).astype(dt)
    x = (rng.standard_normal(N) * 300).astype(dt)
    y = (rng.standard_normal(N) * 300).astype(dt)
    x[0], y[0] = 60000, 3
    return x, y


@pytest.mark.parametrize("name", DTYPES)
def test_each_op_gives_numpys_result(name):
    x, y = operands(name)
    dt = asc.DataType(name)
    outs = {op: np.zeros(N, dtype=name) for op in ("copy", "add", "mul", "muls", "duplicate")}

    @asc.jit
    def kernel(x_arg, y_arg, copy, add, mul, muls, duplicate):
        gms = {}
        for k, a in (("x", x_arg), ("y", y_arg), ("copy", copy), ("add", add), ("mul", mul),
                     ("muls", muls), ("duplicate", duplicate)):
            gms[k] = asc.GlobalTensor()
            gms[k].set_global_buffer(a, N)
        loc = {k: asc.LocalTensor(dt, asc.TPosition.VECCALC, i * STEP, N)
               for i, k in enumerate(("x", "y", "add", "mul", "muls", "duplicate"))}
        asc.data_copy(loc["x"], gms["x"], N)
        asc.data_copy(loc["y"], gms["y"], N)
        sync(HE.MTE2_V)
        asc.add(loc["add"], loc["x"], loc["y"], N)
        asc.mul(loc["mul"], loc["x"], loc["y"], N)
        asc.muls(loc["muls"], loc["x"], SCALAR, N)
        asc.duplicate(loc["duplicate"], SCALAR, N)
        sync(HE.V_MTE3)
        sync(HE.MTE2_MTE3)
        asc.data_copy(gms["copy"], loc["x"], N)
        for k in ("add", "mul", "muls", "duplicate"):
            asc.data_copy(gms[k], loc[k], N)

    kernel[1](x, y, *outs.values())
    with np.errstate(all="ignore"):
        dup = np.empty(N, dtype=name)
        dup.fill(SCALAR)
        want = {"copy": x, "add": np.add(x, y), "mul": np.multiply(x, y),
                "muls": np.multiply(x, np.asarray(SCALAR, dtype=name)), "duplicate": dup}
    for op, got in outs.items():
        assert got.tobytes() == want[op].tobytes(), (op, got, want[op])


def test_dst_partly_over_a_source_reads_the_sources_first():
    """numpy's semantics, which libasc's ops do not have: left to numpy."""
    x = np.arange(N, dtype=np.float32)
    out = np.zeros(N, dtype=np.float32)

    @asc.jit
    def kernel(x_arg, out_arg):
        x_gm, out_gm = asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x_arg, N)
        out_gm.set_global_buffer(out_arg, N)
        whole = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, N + 8)
        asc.data_copy(whole, x_gm, N)
        sync(HE.MTE2_V)
        src = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, N)
        dst = src.reinterpret_cast(asc.float32)
        dst.set_addr_with_offset(src, 8)
        asc.add(dst, src, src, N)
        sync(HE.V_MTE3)
        asc.data_copy(out_gm, whole[8:], N)

    kernel[1](x, out)
    assert np.array_equal(out, 2 * x)


def test_an_op_follows_a_tensor_that_changed():
    """The arguments made for an op are those of the tensor as it is now."""
    out = np.zeros(4 * N, dtype=np.int32)

    @asc.jit
    def kernel(out_arg):
        out_gm = asc.GlobalTensor()
        out_gm.set_global_buffer(out_arg, 4 * N)
        whole = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 4 * N)
        t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, N)
        for i in range(4):
            asc.duplicate(t, i + 1, N)
            asc.pipe_barrier(asc.PipeID.PIPE_V)
            if i == 1:
                t = t.reinterpret_cast(asc.int16)
                asc.duplicate(t, -1, 2 * N)
                asc.pipe_barrier(asc.PipeID.PIPE_V)
                asc.duplicate(t, 7, N)
                asc.pipe_barrier(asc.PipeID.PIPE_V)
                t = t.reinterpret_cast(asc.int32)
                asc.duplicate(t[N // 2:], 2, N // 2)
                asc.pipe_barrier(asc.PipeID.PIPE_V)
            t.set_addr_with_offset(t, N)
        sync(HE.V_MTE3)
        asc.data_copy(out_gm, whole, 4 * N)

    kernel[1](out)
    second = np.full(N, -1, dtype=np.int32)
    second.view(np.int16)[:N] = 7
    second[N // 2:] = 2
    assert np.array_equal(out[:N], np.full(N, 1))
    assert np.array_equal(out[N:2 * N], second)
    assert np.array_equal(out[2 * N:3 * N], np.full(N, 3))
    assert np.array_equal(out[3 * N:], np.full(N, 4))


def test_an_op_past_a_tensor_that_shrank_raises():
    """A tensor's length is read at each op: past its new end, the memory checks'
    error, not the op of its old length."""

    @asc.jit
    def kernel():
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, N)
        asc.duplicate(t, 1.0, N)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        t.set_size(N // 2)
        asc.duplicate(t, 1.0, N)

    with pytest.raises(asc.OutOfBoundsError) as e:
        kernel[1]()
    assert f"[0+{4 * N}], past its {2 * N} bytes at test_ops.py:" in str(e.value)

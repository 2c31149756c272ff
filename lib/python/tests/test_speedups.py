# SPDX-License-Identifier: LGPL-2.1-or-later
"""asc._speedups: the C calls are the ones in use, and each behaves as the
Python code it replaces (asc.sync's and asc.ops' py_* functions, ops.py's
ctypes call):
the same result, exception, message and report, line for line."""

import os
import subprocess
import sys

import numpy as np
import pytest

import asc
from asc import ops, runtime, speedups, sync, where

HE = asc.HardEvent
MOD = speedups.module
needs_c = pytest.mark.skipif(MOD is None, reason="asc._speedups is not loaded")
#: (set_flag, wait_flag, pipe_barrier) of each implementation.
IMPLS = {"py": (sync.py_set_flag, sync.py_wait_flag, sync.py_pipe_barrier)}
if MOD is not None:
    IMPLS["c"] = (MOD.set_flag, MOD.wait_flag, MOD.pipe_barrier)


def test_the_c_calls_are_in_use():
    if os.environ.get("ASC_NO_SPEEDUPS"):
        assert MOD is None and asc.set_flag is sync.py_set_flag
        assert asc.data_copy is ops.py_data_copy and asc.add is ops.py_add
        return
    assert MOD is not None, f"no asc._speedups: built at {speedups.path()}?"
    assert asc.set_flag is MOD.set_flag and asc.wait_flag is MOD.wait_flag
    assert asc.pipe_barrier is MOD.pipe_barrier and ops._issue_op is MOD.issue_op
    assert asc.data_copy is MOD.data_copy and asc.add is MOD.add and asc.mul is MOD.mul


def outcome(case, impl):
    """What a kernel running ``case(set_flag, wait_flag, pipe_barrier)`` of
    ``impl`` ends with: None, or the exception's type, text and report,
    and those of the kernel's own exception (the launch's cause)."""
    calls = IMPLS[impl]

    def body():
        case(*calls)
    try:
        asc.jit(body)[1]()
    except Exception as e:  # noqa: B902 - compared, whatever it is
        cause = e.__cause__
        return (type(e), str(e), getattr(e, "report", None),
                type(cause), str(cause), getattr(cause, "report", None))
    return None


def pair(set_flag, wait_flag, pipe_barrier):
    pipe = asc.TPipe()
    ev = pipe.alloc_event_id(HE.V_S)
    set_flag(HE.V_S, ev)
    wait_flag(HE.V_S, ev)
    pipe.release_event_id(ev, HE.V_S)


def pair_by_keyword(set_flag, wait_flag, pipe_barrier):
    pipe = asc.TPipe()
    ev = pipe.alloc_event_id(HE.MTE2_V)
    set_flag(event=HE.MTE2_V, event_id=float(ev))
    wait_flag(int(HE.MTE2_V), event_id=np.int32(ev))
    pipe_barrier(pipe=asc.PipeID.PIPE_ALL)
    pipe_barrier(int(asc.PipeID.PIPE_V))
    pipe.release_event_id(ev, HE.MTE2_V)


def default_id(set_flag, wait_flag, pipe_barrier):
    set_flag(HE.V_S)
    wait_flag(HE.V_S)


def no_such_id(set_flag, wait_flag, pipe_barrier):
    set_flag(HE.V_S, 99)


def no_such_event(set_flag, wait_flag, pipe_barrier):
    set_flag(1234, 0)


def double_set(set_flag, wait_flag, pipe_barrier):
    set_flag(HE.V_S, 1)
    set_flag(HE.V_S, 1)


def wait_no_set(set_flag, wait_flag, pipe_barrier):
    set_flag(HE.V_S, 1)
    wait_flag(HE.V_S, 0)


def barrier_on_s(set_flag, wait_flag, pipe_barrier):
    pipe_barrier(asc.PipeID.PIPE_S)


def no_such_pipe(set_flag, wait_flag, pipe_barrier):
    pipe_barrier(77)


def missing_barrier(set_flag, wait_flag, pipe_barrier):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 64, 8)
    asc.add(b, a, a, 8)
    pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.mul(a, b, b, 8)


CASES = [pair, pair_by_keyword, default_id, no_such_id, no_such_event, double_set,
         wait_no_set, barrier_on_s, no_such_pipe, missing_barrier]


@needs_c
@pytest.mark.device
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__)
def test_a_c_call_ends_as_the_python_one(case):
    c, py = outcome(case, "c"), outcome(case, "py")
    assert c == py
    if case.__name__ in ("pair", "pair_by_keyword", "default_id"):
        assert c is None
    else:
        assert c is not None


@needs_c
@pytest.mark.device
def test_an_op_ends_as_the_ctypes_call(monkeypatch):
    def case(add, mul):
        def body():
            a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
            b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 64, 8)
            add(b, a, a, 8)
            asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
            mul(a, b, b, 8)
        try:
            asc.jit(body)[1]()
        except asc.MissingSyncError as e:
            return str(e), e.report
        return None
    c = case(MOD.add, MOD.mul)
    issue_op = case(ops.py_add, ops.py_mul)
    monkeypatch.setattr(ops, "_issue_op", None)
    ctypes_call = case(ops.py_add, ops.py_mul)
    assert c is not None and c == issue_op == ctypes_call
    assert " add at test_speedups.py:" in c[1] and " mul at test_speedups.py:" in c[1], c[1]


#: (data_copy, add, mul) of each implementation.
OPS = {"py": (ops.py_data_copy, ops.py_add, ops.py_mul)}
if MOD is not None:
    OPS["c"] = (MOD.data_copy, MOD.add, MOD.mul)
#: Elements of the op cases' tensors.
N = 16
#: A LocalTensor kept past the end of its kernel (op case stale_local).
KEPT = []


def sync(event):
    asc.set_flag(event, 0)
    asc.wait_flag(event, 0)


def local(i, dtype=asc.float32, n=N):
    """A LocalTensor at the ``i``-th kilobyte of the Unified Buffer."""
    return asc.LocalTensor(dtype, asc.TPosition.VECCALC, 1024 * i, n)


def op_outcome(case, impl):
    """What a kernel running ``case(gm, data_copy, add, mul)`` of ``impl``
    on five global arrays (two in, three out) ends with: the arrays, and None or the
    exception's type, text and report and those of its cause."""
    arrays = [np.arange(N, dtype=np.float32) * k for k in (1, 3)]
    arrays += [np.zeros(N, dtype=np.float32) for _ in range(3)]

    def body(*args):
        gm = []
        for a in args:
            gm.append(asc.GlobalTensor())
            gm[-1].set_global_buffer(a, N)
        case(gm, *OPS[impl])
    try:
        asc.jit(body)[1](*arrays)
        end = None
    except Exception as e:  # noqa: B902 - compared, whatever it is
        cause = e.__cause__
        end = (type(e), str(e), getattr(e, "report", None),
               type(cause), str(cause), getattr(cause, "report", None))
    return [a.tolist() for a in arrays], end


def vadd_twice(gm, data_copy, add, mul):
    x, y, z = local(0), local(1), local(2)
    for _ in range(2):
        data_copy(x, gm[0], N)
        data_copy(y, gm[1], N)
        sync(HE.MTE2_V)
        add(z, x, y, N)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        mul(x, z, y, N, False)
        sync(HE.V_MTE3)
        data_copy(gm[2], z, N)
        data_copy(gm[3], x, N)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def retargeted(gm, data_copy, add, mul):
    """The same tensors changed between two ops: each op sees what they are now."""
    x, z = local(0), local(2)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    add(z, x, x, N)
    sync(HE.V_MTE3)
    data_copy(gm[2], z, N)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    gm[0].set_global_buffer(asc.GlobalAddress(gm[1].data), N)
    x.set_addr_with_offset(local(4), 0)
    z.set_size(N // 2)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    add(z, x, x, N // 2)
    sync(HE.V_MTE3)
    data_copy(gm[3], z, N // 2)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def changed_between_calls(gm, data_copy, add, mul):
    """An op issued again with one thing changed: its count, its
    GlobalTensor's buffer, its LocalTensor's address."""
    x, z = local(0), local(2)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    sync(HE.V_MTE3)
    data_copy(gm[2], x, N // 2)
    sync(HE.MTE3_V)
    add(x, x, x, N)
    sync(HE.V_MTE3)
    data_copy(gm[2], x, N)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    gm[0].set_global_buffer(asc.GlobalAddress(gm[1].data), N)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    add(z, x, x, N)
    sync(HE.V_MTE3)
    data_copy(gm[3], x, N)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    x.set_addr_with_offset(z, 0)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    sync(HE.V_MTE3)
    data_copy(gm[4], z, N)


def by_keyword_and_numbers(gm, data_copy, add, mul):
    x, z = local(0), local(2)
    data_copy(dst=x, src=gm[0], count=np.int64(N))
    sync(HE.MTE2_V)
    add(z, x, x, float(N), is_set_mask=False)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    mul(x, z, src1=z, count=N)
    sync(HE.V_MTE3)
    data_copy(gm[2], x, count=N)


def no_buffer(gm, data_copy, add, mul):
    scratch = asc.GlobalTensor()
    x = local(0)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    sync(HE.V_MTE3)
    data_copy(scratch, x, N)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
    data_copy(scratch, x, N)


def overlapping(gm, data_copy, add, mul):
    x = local(0, n=2 * N)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    add(x[1:], x, x, N)
    sync(HE.V_MTE3)
    data_copy(gm[2], x, N)


def count_zero(gm, data_copy, add, mul):
    data_copy(local(0), gm[0], 0)


def count_negative(gm, data_copy, add, mul):
    add(local(0), local(1), local(2), -3)


def count_past_the_end(gm, data_copy, add, mul):
    data_copy(local(0), gm[0], 2 * N)


def shrunk(gm, data_copy, add, mul):
    """The same add again, on a dst made shorter than its count."""
    x, z = local(0), local(2)
    data_copy(x, gm[0], N)
    sync(HE.MTE2_V)
    add(z, x, x, N)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    z.set_size(N // 2)
    add(z, x, x, N)


def local_to_local(gm, data_copy, add, mul):
    data_copy(local(0), local(1), N)


def global_to_add(gm, data_copy, add, mul):
    add(gm[0], local(1), local(2), N)


def mixed_dtypes(gm, data_copy, add, mul):
    mul(local(0), local(1), local(2, asc.int32), N)


def too_many_arguments(gm, data_copy, add, mul):
    data_copy(local(0), gm[0], N, 1)


def missing_sync(gm, data_copy, add, mul):
    x = local(0)
    data_copy(x, gm[0], N)
    add(x, x, x, N)


def stale_local(gm, data_copy, add, mul):
    """A LocalTensor of a kernel that has returned, after the same op on
    the tensor of this kernel it was (whose Unified Buffer may well be
    at the same address)."""
    if not KEPT:
        KEPT.append(local(0))
        return
    data_copy(local(0), gm[0], N)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    data_copy(KEPT.pop(), gm[0], N)


OP_CASES = [vadd_twice, retargeted, changed_between_calls, by_keyword_and_numbers, no_buffer,
            overlapping, count_zero, count_negative, count_past_the_end, shrunk, local_to_local,
            global_to_add, mixed_dtypes, too_many_arguments, missing_sync, stale_local]


@needs_c
@pytest.mark.device
@pytest.mark.parametrize("case", OP_CASES, ids=lambda c: c.__name__)
def test_a_c_op_ends_as_the_python_one(case):
    def run(impl):
        if case is stale_local:
            op_outcome(case, impl)
        return op_outcome(case, impl)
    c, py = run("c"), run("py")
    assert c == py
    x, y, zero = np.arange(N) * 1.0, np.arange(N) * 3.0, [0.0] * N
    if case is vadd_twice:
        assert c == ([x.tolist(), y.tolist(), (x + y).tolist(), ((x + y) * y).tolist(), zero],
                     None)
    elif case is retargeted:
        assert c[0][2] == (2 * x).tolist() and c[0][3] == (2 * y)[:N // 2].tolist() + [0] * (N // 2)
        assert c[1] is None
    elif case is changed_between_calls:
        assert c == ([x.tolist(), y.tolist(), (2 * x).tolist(), y.tolist(), y.tolist()], None)
    elif case in (by_keyword_and_numbers, no_buffer, overlapping):
        assert c[1] is None
    else:
        assert c[1] is not None, case.__name__


@pytest.mark.device
def test_the_ops_on_new_tensors_of_a_queue_are_made_once():
    """alloc_tensor() and deque() make a new LocalTensor each time and
    x_gm[0:] a new GlobalTensor: an op is found again by what its tensors
    are, so that a kernel's loop makes the arguments of its ops once."""
    n = 128
    x = np.arange(n, dtype=np.float32)
    z = np.zeros_like(x)
    made = []

    def body(x, z):
        x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        q_in = asc.TQue(asc.TPosition.VECIN, 2)
        q_out = asc.TQue(asc.TPosition.VECOUT, 2)
        pipe.init_buffer(q_in, 2, 4 * n)
        pipe.init_buffer(q_out, 2, 4 * n)
        for _ in range(8):
            a = q_in.alloc_tensor(asc.float32)
            asc.data_copy(a, x_gm[0:], count=n)
            q_in.enque(a)
            b = q_in.deque(asc.float32)
            c = q_out.alloc_tensor(asc.float32)
            asc.add(c, b, b, count=n)
            q_out.enque(c)
            q_in.free_tensor(b)
            d = q_out.deque(asc.float32)
            asc.data_copy(z_gm[0:], d, count=n)
            q_out.free_tensor(d)
            asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        made.append(len(runtime._local.core.ops))
    asc.jit(body)[1](x, z)
    np.testing.assert_array_equal(z, 2 * x)
    assert made == [6], "3 ops on each of the 2 buffers of a queue"


@needs_c
@pytest.mark.parametrize("impl", ["c", "py"])
def test_an_op_outside_a_kernel_is_pyasc_error(impl):
    with pytest.raises(RuntimeError, match="'data_copy' cannot be called without initialization"):
        OPS[impl][0](None, None, 1)


@needs_c
@pytest.mark.parametrize("impl", ["c", "py"])
def test_outside_a_kernel_is_pyasc_error(impl):
    with pytest.raises(RuntimeError, match="'set_flag' cannot be called without initialization"):
        IMPLS[impl][0](HE.V_S, 0)
    with pytest.raises(RuntimeError, match="'pipe_barrier' cannot be called without"):
        IMPLS[impl][2](asc.PipeID.PIPE_ALL)


@needs_c
@pytest.mark.parametrize("impl", ["c", "py"])
@pytest.mark.parametrize("args,kwargs", [((), {}), ((HE.V_S, 0, 1), {}),
                                         ((HE.V_S,), {"id": 0}),
                                         ((HE.V_S, 0), {"event_id": 0})])
def test_bad_arguments_are_type_errors(impl, args, kwargs):
    with pytest.raises(TypeError):
        IMPLS[impl][0](*args, **kwargs)


@needs_c
def test_the_call_site_is_where_s():
    def helper():
        first = MOD.call_site(), where.call_site()
        second = MOD.call_site(), where.call_site()
        return first, second
    code = helper.__code__
    for _ in range(3):  # the lines of the C calls' cache, seen again
        first, second = helper()
        assert first[0] == first[1] == (code.co_filename.encode(), code.co_firstlineno + 1)
        assert second[0] == second[1] == (code.co_filename.encode(), code.co_firstlineno + 2)


@needs_c
def test_the_module_refuses_calls_before_it_is_bound():
    script = ("import importlib.machinery as m, importlib.util as u, sys\n"
              "l = m.ExtensionFileLoader('asc._speedups', sys.argv[1])\n"
              "s = u.spec_from_file_location('asc._speedups', sys.argv[1], loader=l)\n"
              "mod = u.module_from_spec(s); l.exec_module(mod)\n"
              "for call in (lambda: mod.set_flag(1, 0), mod.call_site,\n"
              "             lambda: mod.issue_op(0, 0, 0, b'add', 0, 0, 'add'),\n"
              "             lambda: mod.data_copy(0, 0, 1), lambda: mod.add(0, 0, 0, 1)):\n"
              "    try:\n"
              "        call()\n"
              "    except RuntimeError as e:\n"
              "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", script, MOD.__file__], capture_output=True,
                         text=True, check=True).stdout
    assert out == ("asc._speedups: not bound (asc.speedups binds it)\n" * 3 +
                   "asc._speedups: ops not bound (asc.ops binds them)\n" * 2)

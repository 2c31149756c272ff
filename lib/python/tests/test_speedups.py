# SPDX-License-Identifier: LGPL-2.1-or-later
"""asc._speedups: the C calls are the ones in use, and each behaves as the
Python code it replaces (asc.sync's py_* functions, ops.py's ctypes call):
the same result, exception, message and report, line for line."""

import os
import subprocess
import sys

import numpy as np
import pytest

import asc
from asc import ops, speedups, sync, where

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
        return
    assert MOD is not None, f"no asc._speedups: built at {speedups.path()}?"
    assert asc.set_flag is MOD.set_flag and asc.wait_flag is MOD.wait_flag
    assert asc.pipe_barrier is MOD.pipe_barrier and ops._issue_op is MOD.issue_op


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
    def case(set_flag, wait_flag, pipe_barrier):
        missing_barrier(set_flag, wait_flag, pipe_barrier)
    c = outcome(case, "c")
    monkeypatch.setattr(ops, "_issue_op", None)
    py = outcome(case, "c")
    assert c == py and c[0] is asc.MissingSyncError
    assert " add at test_speedups.py:" in c[2] and " mul at test_speedups.py:" in c[2], c[2]


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
              "             lambda: mod.issue_op(0, 0, 0, b'add', 0, 0, 'add')):\n"
              "    try:\n"
              "        call()\n"
              "    except RuntimeError as e:\n"
              "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", script, MOD.__file__], capture_output=True,
                         text=True, check=True).stdout
    assert out == "asc._speedups: not bound (asc.speedups binds it)\n" * 3

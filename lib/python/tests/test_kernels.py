# SPDX-License-Identifier: LGPL-2.1-or-later
"""Kernels on the core runtime through /dev/asc_event (run in the guest)."""

import errno
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

import asc

pytestmark = pytest.mark.device

TILE = 256


@asc.jit
def seed_snippets():
    pipe = asc.TPipe()
    global_pipe = asc.get_tpipe_ptr()
    # The seed's first snippet, as written.
    event_id = asc.get_tpipe_ptr().alloc_event_id(asc.HardEvent.V_S)
    asc.set_flag(asc.HardEvent.V_S, event_id)
    # ... 中间执行需要同步的指令 ...
    asc.wait_flag(asc.HardEvent.V_S, event_id)
    asc.get_tpipe_ptr().release_event_id(event_id, asc.HardEvent.V_S)
    # The seed's second snippet, from test_vadd_sw.py.
    eventid1 = global_pipe.alloc_event_id(event=asc.HardEvent.MTE2_V)
    asc.set_flag(event=asc.HardEvent.MTE2_V, event_id=eventid1)
    asc.wait_flag(event=asc.HardEvent.MTE2_V, event_id=eventid1)
    global_pipe.release_event_id(id=eventid1, event=asc.HardEvent.MTE2_V)
    # The seed's third snippet.
    dst = asc.GlobalTensor()
    src = asc.LocalTensor()
    src.set_value(0, 0)
    data_size = 512
    event_id = global_pipe.fetch_event_id(event=asc.HardEvent.S_MTE3)
    asc.set_flag(event=asc.HardEvent.S_MTE3, event_id=event_id)
    asc.wait_flag(event=asc.HardEvent.S_MTE3, event_id=event_id)
    asc.data_copy(dst, src, data_size)
    pipe.reset()


def test_seed_snippets_run_unmodified():
    seed_snippets[1]()


def make_vadd(skip_wait=None):
    @asc.jit
    def vadd(x, y, z, block_length, tile_length, tile_num):
        offset = asc.get_block_idx() * block_length
        x_gm = asc.GlobalTensor()
        y_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x + offset, block_length)
        y_gm.set_global_buffer(y + offset, block_length)
        z_gm.set_global_buffer(z + offset, block_length)
        pipe = asc.TPipe()
        size = tile_length * x.dtype.sizeof()
        x_local = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile_length)
        y_local = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, size, tile_length)
        z_local = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 2 * size, tile_length)
        for i in range(tile_num):
            pipe.destroy()
            pipe.init()
            global_pipe = asc.get_tpipe_ptr()
            asc.data_copy(x_local, x_gm[i * tile_length:], count=tile_length)
            asc.data_copy(y_local, y_gm[i * tile_length:], count=tile_length)
            eventid1 = global_pipe.alloc_event_id(event=asc.HardEvent.MTE2_V)
            asc.set_flag(event=asc.HardEvent.MTE2_V, event_id=eventid1)
            if skip_wait != "MTE2_V":
                asc.wait_flag(event=asc.HardEvent.MTE2_V, event_id=eventid1)
            global_pipe.release_event_id(id=eventid1, event=asc.HardEvent.MTE2_V)
            asc.add(z_local, x_local, y_local, count=tile_length)
            eventid2 = global_pipe.fetch_event_id(event=asc.HardEvent.V_MTE3)
            asc.set_flag(event=asc.HardEvent.V_MTE3, event_id=eventid2)
            if skip_wait != "V_MTE3":
                asc.wait_flag(event=asc.HardEvent.V_MTE3, event_id=eventid2)
            asc.data_copy(z_gm[i * tile_length:], z_local, count=tile_length)
            pipe.reset()
    return vadd


@pytest.mark.parametrize("core_num", [1, 2, 8])
@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_vadd(core_num, dtype):
    tile_num = 4
    n = core_num * tile_num * TILE
    rng = np.random.default_rng(core_num)
    x = rng.integers(-100, 100, n).astype(dtype)
    y = rng.integers(-100, 100, n).astype(dtype)
    z = np.zeros_like(x)
    make_vadd()[core_num](x, y, z, tile_num * TILE, TILE, tile_num)
    np.testing.assert_array_equal(z, x + y)


@pytest.mark.parametrize("wait,first,second", [("MTE2_V", "data_copy", "add"),
                                                ("V_MTE3", "add", "data_copy")])
def test_vadd_without_a_wait_is_a_missing_sync(wait, first, second):
    x = np.ones(TILE, np.float32)
    z = np.zeros_like(x)
    with pytest.raises(asc.MissingSyncError) as e:
        make_vadd(skip_wait=wait)[1](x, x, z, TILE, TILE, 1)
    assert e.value.errno == errno.ENOLCK
    line = [l for l in e.value.report.splitlines() if "missing sync:" in l][0]
    # Each side named with the kernel's line that issued it.
    assert f" {first} at test_kernels.py:" in line, e.value.report
    assert f" {second} at test_kernels.py:" in line, e.value.report


def run(body, core_num=1, **options):
    asc.jit(**options)(body)[core_num]()


def test_a_wait_no_set_uses_names_the_nearest_set():
    def body():
        asc.set_flag(asc.HardEvent.V_S, 1)
        asc.wait_flag(asc.HardEvent.V_S, 0)
    with pytest.raises(asc.DeadlockError) as e:
        run(body)
    line = [l for l in e.value.report.splitlines() if "deadlock:" in l][0]
    assert "waits forever for V_S id 0 (#2 at test_kernels.py:" in line, line
    assert "no set of it was issued; the nearest set of V_S is of id 1 " \
           "(#1 at test_kernels.py:" in line, line


def test_double_set_raises():
    def body():
        asc.TPipe()
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
    with pytest.raises(asc.DoubleSetError) as e:
        run(body)
    assert e.value.errno == errno.EBUSY and "double set" in e.value.report


def test_wait_nobody_sets_is_a_deadlock_not_a_hang():
    def body():
        asc.wait_flag(asc.HardEvent.V_S, 3)
    t0 = time.monotonic()
    with pytest.raises(asc.DeadlockError) as e:
        run(body)
    assert e.value.errno == errno.EDEADLK and "deadlock" in e.value.report
    assert time.monotonic() - t0 < 10


def test_second_tpipe_and_missing_tpipe():
    seen = []

    def body():
        with pytest.raises(RuntimeError) as e:
            asc.get_tpipe_ptr()
        seen.append(str(e.value))
        pipe = asc.TPipe()
        assert asc.get_tpipe_ptr() is pipe
        with pytest.raises(RuntimeError) as e:
            asc.TPipe()
        seen.append(str(e.value))
    run(body)
    assert seen == ["TPipe instance is not initialized, use TPipe() to create it",
                    "TPipe instance is already created, use get_tpipe_ptr() to obtain it"]


def test_event_id_pool_defaults_exhaustion_and_release():
    got = {}

    def body():
        pipe = asc.TPipe()
        a = pipe.alloc_event_id()
        got["fetch_v_s"] = pipe.fetch_event_id()
        got["fetch_mte2_v"] = pipe.fetch_event_id(asc.HardEvent.MTE2_V)
        pipe.release_event_id(a)
        got["after"] = pipe.fetch_event_id(asc.HardEvent.V_S)
        ids = []
        try:
            while True:
                ids.append(pipe.alloc_event_id(asc.HardEvent.V_MTE3))
        except asc.EventIDExhaustedError as e:
            got["exhausted"] = (ids, e.errno)
            raise
    with pytest.raises(asc.EventIDExhaustedError) as e:
        run(body)
    assert e.value.errno == errno.ENOSPC
    assert got["fetch_v_s"] == 1 and got["fetch_mte2_v"] == 0 and got["after"] == 0
    ids, err = got["exhausted"]
    assert ids == list(range(len(ids))) and len(ids) in (4, 8) and err == errno.ENOSPC


def test_release_of_an_id_never_allocated():
    def body():
        asc.TPipe().release_event_id(2, asc.HardEvent.MTE2_V)
    with pytest.raises(asc.EventIDNotAllocatedError) as e:
        run(body)
    assert e.value.errno == errno.ENOENT and "release_event_id" in e.value.report


def test_pipe_barrier_of_s_is_refused():
    def body():
        asc.pipe_barrier(asc.PipeID.PIPE_S)
    with pytest.raises(asc.AscError) as e:
        run(body)
    assert e.value.errno == errno.EINVAL


def test_vector_ops_and_scalar_access():
    out = np.zeros(8, np.float32)
    vals = []

    def body(o):
        o_gm = asc.GlobalTensor()
        o_gm.set_global_buffer(o)
        pipe = asc.TPipe()
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 64, 8)
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 128, 8)
        asc.duplicate(a, 3.0, 8)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.muls(b, a, 2.0, 8)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.mul(c, a, b, 8)
        ev = pipe.fetch_event_id(asc.HardEvent.V_S)
        asc.set_flag(asc.HardEvent.V_S, ev)
        asc.wait_flag(asc.HardEvent.V_S, ev)
        vals.append(c.get_value(7))
        c.set_value(0, 1.5)
        ev = pipe.fetch_event_id(asc.HardEvent.S_MTE3)
        asc.set_flag(asc.HardEvent.S_MTE3, ev)
        asc.wait_flag(asc.HardEvent.S_MTE3, ev)
        asc.data_copy(o_gm, c, 8)
    asc.jit(body)[1](out)
    assert vals == [18.0]
    assert out.tolist() == [1.5] + [18.0] * 7


@pytest.mark.parametrize("barrier", [None, "PIPE_V", "PIPE_ALL", "V_V"])
def test_one_pipe_needs_its_barrier(barrier):
    # Ascend C's PipeBarrier example: Add, PipeBarrier<PIPE_V>, Mul.
    def body():
        pipe = asc.TPipe()
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 64, 8)
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 128, 8)
        asc.add(b, a, a, 8)
        if barrier == "V_V":
            ev = pipe.fetch_event_id(asc.HardEvent.V_V)
            asc.set_flag(asc.HardEvent.V_V, ev)
            asc.wait_flag(asc.HardEvent.V_V, ev)
        elif barrier:
            asc.pipe_barrier(asc.PipeID[barrier])
        asc.mul(c, b, a, 8)
    if barrier:
        run(body)
        return
    with pytest.raises(asc.MissingSyncError) as e:
        run(body)
    assert e.value.errno == errno.ENOLCK
    line = [l for l in e.value.report.splitlines() if "missing sync:" in l][0]
    assert line.startswith("missing sync: V writes "), e.value.report
    assert " add at test_kernels.py:" in line and " mul at test_kernels.py:" in line, line
    assert line.endswith("one pipe, but pipelined: no pipe_barrier(V) between them"), line


@pytest.mark.parametrize("at", ["reset", "destroy", "end", None])
def test_an_id_never_released_is_a_leak(at):
    lines = {}

    def body():
        pipe = asc.TPipe()
        lines["alloc"] = sys._getframe().f_lineno + 1
        ev = pipe.alloc_event_id(asc.HardEvent.V_S)
        asc.set_flag(asc.HardEvent.V_S, ev)
        asc.wait_flag(asc.HardEvent.V_S, ev)
        if at is None:
            pipe.release_event_id(ev, asc.HardEvent.V_S)
        elif at != "end":
            lines["end"] = sys._getframe().f_lineno + 1
            getattr(pipe, at)()
    if at is None:
        run(body)
        return
    with pytest.raises(asc.MissingSyncError) as e:
        run(body)
    assert e.value.errno == errno.ENOLCK
    line = [l for l in e.value.report.splitlines() if "leaked ID:" in l][0]
    assert line.startswith("leaked ID: V_S id 0, allocated by the kernel "
                           f"(#1 at test_kernels.py:{lines['alloc']}), never released "), line
    if at == "end":
        assert line.endswith(" by the end of the kernel"), line
    else:
        assert line.endswith(f" before {at} (#4 at test_kernels.py:{lines['end']})"), line


#: Runs of each hand-written-use-then-alloc kernel, V lagging on every
#: other one and the scalar late on every third (findings-run.c's runs).
COLLISION_RUNS = 10
LAG, LATE = 0.05, 0.2


def run_collide(back, lag, late, seen, lines):
    """A hand-written set and wait of (MTE2_V, 0), then an alloc of MTE2_V.

    With ``back``, V sets V_MTE2 after its wait and MTE2 waits for it, so
    the allocated ID's first set on MTE2 queues behind a wait that comes
    after V's.  ``lag`` makes V sleep before its wait (work on V, issued
    as the operations issue theirs); ``late``, the scalar before the
    alloc.  ``seen`` gets whether V had run its wait when the scalar
    reached the alloc (the work V runs after it had).
    """
    def body():
        pipe = asc.TPipe()
        ran = threading.Event()
        asc.set_flag(event=asc.HardEvent.MTE2_V, event_id=0)
        asc.runtime.issue(asc.PipeID.PIPE_V, lambda: time.sleep(LAG if lag else 0), "lag")
        lines["wait"] = sys._getframe().f_lineno + 1
        asc.wait_flag(event=asc.HardEvent.MTE2_V, event_id=0)
        asc.runtime.issue(asc.PipeID.PIPE_V, ran.set, "ran")
        if back:
            asc.set_flag(event=asc.HardEvent.V_MTE2, event_id=0)
            asc.wait_flag(event=asc.HardEvent.V_MTE2, event_id=0)
        if late:
            time.sleep(LATE)
        seen.append(ran.is_set())
        lines["alloc"] = sys._getframe().f_lineno + 1
        event_id = pipe.alloc_event_id(event=asc.HardEvent.MTE2_V)
        lines["id"] = event_id
        asc.set_flag(event=asc.HardEvent.MTE2_V, event_id=event_id)
        asc.wait_flag(event=asc.HardEvent.MTE2_V, event_id=event_id)
        pipe.release_event_id(id=event_id, event=asc.HardEvent.MTE2_V)
    run(body)


def test_alloc_after_a_use_it_queues_behind_succeeds_every_time():
    seen = []
    for i in range(COLLISION_RUNS):
        lines = {}
        try:
            run_collide(True, i % 2 == 1, i % 3 == 0, seen, lines)
        except asc.AscError as e:
            pytest.fail(f"run {i}: {e.report}")
        assert lines["id"] == 0, (i, lines)
    # Both ways: V had run its wait at the alloc, and it had not.
    assert True in seen and False in seen, seen


def test_alloc_that_may_collide_is_refused_every_time():
    seen = []
    for i in range(COLLISION_RUNS):
        lines = {}
        with pytest.raises(asc.AscError) as e:
            run_collide(False, i % 2 == 1, i % 3 == 0, seen, lines)
        assert "id" not in lines, (i, lines, e.value.report)
        assert isinstance(e.value, asc.EventIDInUseError), (i, e.value.report)
        assert e.value.errno == errno.EADDRINUSE, (i, e.value.report)
        assert e.value.report == (
            "core 0 (AIV 0):\n"
            f"error: #5 alloc_event_id(MTE2_V) on S at test_kernels.py:{lines['alloc']}: "
            "Address already in use\n"
            f"in use: MTE2_V id 0: its last wait, on V (#3 at test_kernels.py:{lines['wait']}), "
            "is ordered before nothing MTE2 issues next: a set of it could come first\n"), \
            (i, e.value.report)
    assert True in seen and False in seen, seen


def test_an_early_release_is_named():
    lines = {}

    def body():
        pipe = asc.TPipe()
        event_id = pipe.alloc_event_id(event=asc.HardEvent.MTE2_V)
        lines["set"] = sys._getframe().f_lineno + 1
        asc.set_flag(event=asc.HardEvent.MTE2_V, event_id=event_id)
        lines["release"] = sys._getframe().f_lineno + 1
        pipe.release_event_id(id=event_id, event=asc.HardEvent.MTE2_V)
        lines["alloc"] = sys._getframe().f_lineno + 1
        pipe.alloc_event_id(event=asc.HardEvent.MTE2_V)
    with pytest.raises(asc.EventIDInUseError) as e:
        run(body)
    assert e.value.errno == errno.EADDRINUSE, e.value.report
    assert e.value.report == (
        "core 0 (AIV 0):\n"
        f"error: #4 alloc_event_id(MTE2_V) on S at test_kernels.py:{lines['alloc']}: "
        "Address already in use\n"
        f"in use: MTE2_V id 0: its flag, set by MTE2 (#2 at test_kernels.py:{lines['set']}), "
        "not waited for yet\n"
        f"in use: MTE2_V id 0: released early (#3 at test_kernels.py:{lines['release']}), "
        f"while its set (#2 at test_kernels.py:{lines['set']}) had no wait issued\n"), \
        e.value.report


def test_a_scalar_read_without_sync_is_a_missing_sync():
    def body():
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
        asc.duplicate(a, 1.0, 8)
        a.get_value(0)
    with pytest.raises(asc.MissingSyncError) as e:
        run(body)
    assert "get_value" in e.value.report and "duplicate" in e.value.report


def test_ctrl_c_ends_the_launch():
    main = threading.get_ident()
    calls = []

    def body():
        asc.TPipe()
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
        while True:
            calls.append(1)
            asc.duplicate(a, 1.0, 8)
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    threading.Timer(0.5, signal.pthread_kill, (main, signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run(body)
    assert time.monotonic() - t0 < 10 and len(calls) > 1


def test_asc_info_finds_the_device(capsys):
    """python3 -m asc.info, run as -m runs it, in this interpreter."""
    import runpy
    with pytest.raises(SystemExit) as e:
        runpy.run_module("asc.info", run_name="__main__", alter_sys=True)
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "libasc: " in out and "version " + asc.__version__ in out
    assert "C calls: " + (asc.speedups.module.__file__ if asc.speedups.module else "none") in out
    assert "device: /dev/asc_event: event IDs per HardEvent" in out and "mode checked" in out

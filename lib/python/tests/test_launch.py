# SPDX-License-Identifier: LGPL-2.1-or-later
"""Launches of several cores: cross-core flags, SyncAll, their errors (in the guest)."""

import errno
import inspect
import threading
import time

import numpy as np
import pytest

import asc

pytestmark = pytest.mark.device

TILE = 256
HE = asc.HardEvent


def sync(event):
    asc.set_flag(event, 0)
    asc.wait_flag(event, 0)


def test_cross_core_handoff_orders_the_cores():
    """Each core reads the slice its neighbour wrote; the writer of slice 0 is slow."""
    n = 4
    x = np.arange(n * TILE, dtype=np.float32)
    mid = np.zeros_like(x)
    out = np.zeros_like(x)

    @asc.jit
    def handoff(x, mid, out):
        i = asc.get_block_idx()
        num = asc.get_block_num()
        x_gm, mid_gm, out_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        mid_gm.set_global_buffer(mid)
        out_gm.set_global_buffer(out)
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * TILE, TILE)
        asc.data_copy(a, x_gm[i * TILE:], TILE)
        sync(HE.MTE2_V)
        asc.muls(b, a, 2.0, TILE)
        sync(HE.V_MTE3)
        if i == 0:
            time.sleep(0.2)
        asc.data_copy(mid_gm[i * TILE:], b, TILE)
        asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_MTE3)
        asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S)
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 8 * TILE, TILE)
        src = (i + 1) % num
        asc.data_copy(c, mid_gm[src * TILE:], TILE)
        sync(HE.MTE2_MTE3)
        asc.data_copy(out_gm[i * TILE:], c, TILE)

    handoff[n](x, mid, out)
    np.testing.assert_array_equal(out, np.roll(2 * x, -TILE))


def test_mix_launch_getters_and_a_mode_2_handoff():
    """MIX_AIC_1_2: each AIC hands its slice to its two AIVs (mode 2)."""
    block_dim = 2
    seen = []
    lock = threading.Lock()
    z = np.zeros(block_dim * TILE, np.float32)
    out = np.zeros(2 * block_dim * TILE, np.float32)

    @asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)
    def mix(z, out):
        idx, sub = asc.get_block_idx(), asc.get_sub_block_idx()
        aic = asc.get_sub_block_num() == 1
        with lock:
            seen.append((aic, idx, sub, asc.get_block_num()))
        z_gm, out_gm = asc.GlobalTensor(), asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        out_gm.set_global_buffer(out)
        loc = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        if aic:
            asc.duplicate(loc, 10.0 * (idx + 1), TILE)
            sync(HE.V_MTE3)
            time.sleep(0.2)
            asc.data_copy(z_gm[idx * TILE:], loc, TILE)
            asc.cross_core_set_flag(1, 2, asc.PipeID.PIPE_MTE3)
        else:
            asc.cross_core_wait_flag(1, 2, asc.PipeID.PIPE_S)
            asc.data_copy(loc, z_gm[(idx // 2) * TILE:], TILE)
            sync(HE.MTE2_MTE3)
            asc.data_copy(out_gm[idx * TILE:], loc, TILE)

    mix[block_dim](z, out)
    assert sorted(seen) == sorted(
        [(True, b, 0, block_dim) for b in range(block_dim)] +
        [(False, 2 * b + s, s, block_dim) for b in range(block_dim) for s in (0, 1)])
    want = np.repeat(10.0 * np.arange(1, block_dim + 1), 2 * TILE).astype(np.float32)
    np.testing.assert_array_equal(out, want)


def test_sync_all_then_a_reduction_on_core_0():
    """8 cores double their slice; after sync_all core 0 sums the 8 partials."""
    n = 8
    rng = np.random.default_rng(8)
    x = rng.integers(-50, 50, n * TILE).astype(np.float32)
    part = np.zeros_like(x)
    out = np.zeros(TILE, np.float32)

    @asc.jit
    def reduce(x, part, out):
        i = asc.get_block_idx()
        num = asc.get_block_num()
        x_gm, part_gm, out_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        part_gm.set_global_buffer(part)
        out_gm.set_global_buffer(out)
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * TILE, TILE)
        asc.data_copy(a, x_gm[i * TILE:], TILE)
        sync(HE.MTE2_V)
        asc.muls(b, a, 2.0, TILE)
        sync(HE.V_MTE3)
        if i != 0:
            time.sleep(0.1)
        asc.data_copy(part_gm[i * TILE:], b, TILE)
        asc.sync_all()
        if i != 0:
            return
        p = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 8 * TILE, num * TILE)
        asc.data_copy(p, part_gm, num * TILE)
        sync(HE.MTE2_V)
        asc.duplicate(b, 0.0, TILE)
        for j in range(num):
            asc.pipe_barrier(asc.PipeID.PIPE_V)
            asc.add(b, b, p[j * TILE:], TILE)
        sync(HE.V_MTE3)
        asc.data_copy(out_gm, b, TILE)

    reduce[n](x, part, out)
    np.testing.assert_array_equal(out, 2 * x.reshape(n, TILE).sum(axis=0))


@pytest.mark.parametrize("core_num", [1, 2])
def test_vadd_cores_share_one_launch(core_num):
    """kernel[n] is one launch: every core sees block_num n and its own index."""
    seen = []
    lock = threading.Lock()

    @asc.jit
    def who():
        with lock:
            seen.append((asc.get_block_idx(), asc.get_block_num(), asc.get_sub_block_idx(),
                         asc.get_sub_block_num()))
        asc.sync_all()

    who[core_num]()
    assert sorted(seen) == [(i, core_num, 0, 1) for i in range(core_num)]


@pytest.mark.parametrize("args,why", [
    ((11, 0, asc.PipeID.PIPE_MTE3), "flag IDs are 0..10"),
    ((-1, 0, asc.PipeID.PIPE_MTE3), "flag IDs are 0..10"),
    ((0, 0, asc.PipeID.PIPE_S), "not on S: a hardware error on the chip"),
    ((0, 1, asc.PipeID.PIPE_MTE3), "modes 1 and 2 are for mix launches"),
    ((0, 2, asc.PipeID.PIPE_V), "modes 1 and 2 are for mix launches"),
], ids=["flag-11", "flag-minus-1", "set-on-S", "mode-1-not-mix", "mode-2-not-mix"])
def test_cross_core_set_errors(args, why):
    def body():
        asc.cross_core_set_flag(*args)

    with pytest.raises(asc.InvalidArgumentError) as e:
        asc.jit(body)[2]()
    assert e.value.errno == errno.EINVAL
    assert "cross_set_flag" in e.value.report and why in e.value.report, e.value.report


def test_cross_core_wait_error():
    def body():
        asc.cross_core_wait_flag(11, 0, asc.PipeID.PIPE_S)

    with pytest.raises(asc.InvalidArgumentError) as e:
        asc.jit(body)[1]()
    assert "cross_wait_flag(11)" in e.value.report and "flag IDs are 0..10" in e.value.report


def test_mode_1_from_an_aic_is_refused():
    def body():
        if asc.get_sub_block_num() == 1:
            asc.cross_core_set_flag(0, 1, asc.PipeID.PIPE_MTE3)

    with pytest.raises(asc.InvalidArgumentError) as e:
        asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)(body)[1]()
    assert "mode 1 is for AIVs" in e.value.report


@pytest.mark.parametrize("pipe", [asc.PipeID.PIPE_S, asc.PipeID.PIPE_MTE2])
def test_cross_core_wait_nobody_sets_is_a_deadlock_not_a_hang(pipe):
    def body():
        asc.cross_core_wait_flag(3, 0, pipe)

    t0 = time.monotonic()
    with pytest.raises(asc.DeadlockError) as e:
        asc.jit(body)[2]()
    assert e.value.errno == errno.EDEADLK
    assert "deadlock across the cores" in e.value.report
    assert "cross-core flag 3" in e.value.report, e.value.report
    assert time.monotonic() - t0 < 10


def test_sync_all_a_core_never_reaches_is_a_deadlock():
    def body():
        if asc.get_block_idx() == 0:
            asc.cross_core_wait_flag(2, 0, asc.PipeID.PIPE_S)
        asc.sync_all()

    with pytest.raises(asc.DeadlockError) as e:
        asc.jit(body)[8]()
    assert "SyncAll" in e.value.report, e.value.report


def test_cross_core_calls_outside_a_kernel():
    for call in (lambda: asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_MTE3),
                 lambda: asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S), asc.sync_all,
                 asc.get_sub_block_idx, asc.get_sub_block_num):
        with pytest.raises(RuntimeError, match="without initialization of global builder"):
            call()


@pytest.mark.parametrize("ai_cores", [1, 2])
def test_mix_kernel_aivs_meet_in_sync_all_without_the_aic(ai_cores):
    """The AIVs of a mix launch double their slices and meet in sync_all()
    (is_aiv_only=True): AIV 0 then sums every AIV's partial.  The AIC takes
    no part: it waits in the SyncAll of every core, which the AIVs join
    after theirs, and then reads the sum."""
    n = 2 * ai_cores
    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, n * TILE).astype(np.float32)
    part = np.zeros_like(x)
    out = np.zeros(TILE, np.float32)
    result = out
    aic_saw = []

    @asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)
    def reduce(x, part, out):
        if asc.get_sub_block_num() == 1:
            asc.sync_all(is_aiv_only=False)
            aic_saw.append(result.copy())
            return
        i = asc.get_block_idx()
        x_gm, part_gm, out_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        part_gm.set_global_buffer(part)
        out_gm.set_global_buffer(out)
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * TILE, TILE)
        asc.data_copy(a, x_gm[i * TILE:], TILE)
        sync(HE.MTE2_V)
        asc.muls(b, a, 2.0, TILE)
        sync(HE.V_MTE3)
        if i != 0:
            time.sleep(0.1)
        asc.data_copy(part_gm[i * TILE:], b, TILE)
        asc.sync_all()
        if i == 0:
            p = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 8 * TILE, n * TILE)
            asc.data_copy(p, part_gm, n * TILE)
            sync(HE.MTE2_V)
            asc.duplicate(b, 0.0, TILE)
            for j in range(n):
                asc.pipe_barrier(asc.PipeID.PIPE_V)
                asc.add(b, b, p[j * TILE:], TILE)
            sync(HE.V_MTE3)
            asc.data_copy(out_gm, b, TILE)
        asc.sync_all(is_aiv_only=False)

    reduce[ai_cores](x, part, out)
    want = 2 * x.reshape(n, TILE).sum(axis=0)
    np.testing.assert_array_equal(out, want)
    assert len(aic_saw) == ai_cores
    for seen in aic_saw:
        np.testing.assert_array_equal(seen, want)


def test_sync_all_of_the_aivs_from_an_aic_is_refused():
    def body():
        if asc.get_sub_block_num() == 1:
            asc.sync_all()

    with pytest.raises(asc.InvalidArgumentError) as e:
        asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)(body)[1]()
    assert e.value.errno == errno.EINVAL
    assert "an AIC takes no part in the AIVs' SyncAll" in e.value.report, e.value.report


def test_sync_all_of_the_aivs_and_of_every_core_mixed_is_a_deadlock():
    def body():
        if asc.get_sub_block_num() == 2 and asc.get_sub_block_idx() == 0:
            asc.sync_all()
        else:
            asc.sync_all(is_aiv_only=False)

    with pytest.raises(asc.DeadlockError) as e:
        asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)(body)[1]()
    assert e.value.errno == errno.EDEADLK
    assert "deadlock: another AIV waits in the SyncAll of" in e.value.report, e.value.report


def gm_tensor(array):
    t = asc.GlobalTensor()
    t.set_global_buffer(array)
    return t


def reduce_kernel(software, used, n):
    """Each core doubles its slice into part, meets the others (the first
    ``used`` of ``n``), then sums their slices into its row of out."""
    def body(x, part, out, ws):
        i = asc.get_block_idx()
        if i >= used:
            return
        x_gm, part_gm, out_gm = gm_tensor(x), gm_tensor(part), gm_tensor(out)
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * TILE, TILE)
        asc.data_copy(a, x_gm[i * TILE:], TILE)
        sync(HE.MTE2_V)
        asc.muls(b, a, 2.0, TILE)
        sync(HE.V_MTE3)
        time.sleep(0.02 * ((i * 3) % used))
        asc.data_copy(part_gm[i * TILE:], b, TILE)
        if software:
            ub = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 48 * TILE, 8)
            asc.sync_all(gm_tensor(ws), ub, used_cores=0 if used == n else used)
        else:
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)   # orders this core's own slice only
        p = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 8 * TILE, used * TILE)
        asc.data_copy(p, part_gm, used * TILE)
        sync(HE.MTE2_V)
        asc.duplicate(b, 0.0, TILE)
        for j in range(used):
            asc.pipe_barrier(asc.PipeID.PIPE_V)
            asc.add(b, b, p[j * TILE:], TILE)
        sync(HE.V_MTE3)
        asc.data_copy(out_gm[i * TILE:], b, TILE)
    return asc.jit(body)


@pytest.mark.parametrize("n,used", [(8, 8), (4, 2)])
def test_software_sync_all_then_every_core_reduces(n, used):
    """sync_all over a workspace: after it, every core that took part sums all slices."""
    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, n * TILE).astype(np.float32)
    part = np.zeros_like(x)
    out = np.zeros(n * TILE, np.float32)
    ws = np.zeros(n * 8, np.int32)
    reduce_kernel(True, used, n)[n](x, part, out, ws)
    want = 2 * x.reshape(n, TILE)[:used].sum(axis=0)
    for i in range(used):
        np.testing.assert_array_equal(out[i * TILE:(i + 1) * TILE], want)
    assert list(ws[::8][:used]) == [1] * used


def test_software_sync_all_missing_is_a_missing_sync():
    """With a PIPE_ALL barrier instead of the sync_all, the cross-core
    detector reports the race on part."""
    n = 4
    x = np.ones(n * TILE, np.float32)
    with pytest.raises(asc.MissingSyncError) as e:
        reduce_kernel(False, n, n)[n](x, np.zeros_like(x), np.zeros_like(x),
                                   np.zeros(n * 8, np.int32))
    assert "no cross-core set/wait or SyncAll orders them" in e.value.report, e.value.report


def ring_kernel(wait):
    """Core i writes its slice of mid, sets its flag, waits for core i - 1's
    and copies that core's slice to its slice of out."""
    @asc.jit
    def ring(x, mid, out, ws):
        i, num = asc.get_block_idx(), asc.get_block_num()
        prev = (i + num - 1) % num
        x_gm, mid_gm, out_gm, ws_gm = gm_tensor(x), gm_tensor(mid), gm_tensor(out), gm_tensor(ws)
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, TILE)
        asc.data_copy(a, x_gm[i * TILE:], TILE)
        sync(HE.MTE2_MTE3)
        time.sleep(0.03 * (num - 1 - i))
        asc.data_copy(mid_gm[i * TILE:], a, TILE)
        asc.ib_set(ws_gm, None, i, 0)
        if wait:
            asc.ib_wait(ws_gm, None, prev, 0)
        c = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 4 * TILE, TILE)
        asc.data_copy(c, mid_gm[prev * TILE:], TILE)
        sync(HE.MTE2_MTE3)
        asc.data_copy(out_gm[i * TILE:], c, TILE)
    return ring


def test_ib_set_and_ib_wait_hand_slices_around_a_ring():
    n = 4
    x = np.arange(n * TILE, dtype=np.float32)
    mid, out, ws = np.zeros_like(x), np.zeros_like(x), np.zeros(n * 8, np.int32)
    ring_kernel(True)[n](x, mid, out, ws)
    np.testing.assert_array_equal(out, np.roll(x, TILE))


def test_ib_wait_missing_is_a_missing_sync():
    n = 4
    x = np.arange(n * TILE, dtype=np.float32)
    with pytest.raises(asc.MissingSyncError) as e:
        ring_kernel(False)[n](x, np.zeros_like(x), np.zeros_like(x), np.zeros(n * 8, np.int32))
    assert "missing sync: core" in e.value.report, e.value.report


def test_software_sync_workspace_checked():
    got = []

    def body(ws, f64):
        small = asc.GlobalTensor()
        small.set_global_buffer(ws, 8)      # 32 bytes: one core's counter
        for call in (lambda: asc.sync_all(small),
                     lambda: asc.ib_set(gm_tensor(f64), None, 0, 0),
                     lambda: asc.ib_wait(ws, None, 0, 0),
                     lambda: asc.sync_all(None, ws)):
            try:
                call()
            except (ValueError, TypeError) as e:
                got.append(type(e).__name__)

    asc.jit(body)[2](np.zeros(16, np.int32), np.zeros(16, np.float64))
    assert sorted(got) == sorted(["ValueError", "ValueError", "TypeError", "ValueError"] * 2)


CHILD = r'''
import json, os, sys, threading, time
import numpy as np
import asc

def fds():
    return sorted(os.readlink("/proc/self/fd/" + f) for f in os.listdir("/proc/self/fd")
                  if os.path.exists("/proc/self/fd/" + f))

before = fds()
got = {}

@asc.jit
def blocked():
    if asc.get_block_idx() == 1:
        print("ready", flush=True)
        try:
            asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S)
        except BaseException as e:
            got["wait"] = [type(e).__name__, getattr(e, "errno", None)]
            raise
        got["wait"] = "returned"
        return
    # Core 0 sets nothing and stays (no libasc call) until cancelled.
    for _ in range(2000):
        time.sleep(0.01)
        asc.get_block_idx()

@asc.jit
def double(x, y):
    i = asc.get_block_idx()
    x_gm, y_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + i * 64, 64)
    y_gm.set_global_buffer(y + i * 64, 64)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    asc.data_copy(a, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(b, a, 2.0, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, b, 64)

try:
    blocked[2]()
    got["launch"] = "returned"
except KeyboardInterrupt as e:
    got["launch"] = "KeyboardInterrupt"
    cause = e.__cause__
    got["cause"] = [type(cause).__name__, getattr(cause, "errno", None),
                    getattr(cause, "report", None)]
got["threads"] = threading.active_count()
got["fds_same"] = fds() == before
x = np.arange(128, dtype=np.float32)
y = np.zeros_like(x)
double[2](x, y)
got["after"] = bool((y == 2 * x).all())
print(json.dumps(got), flush=True)
'''


def test_ctrl_c_ends_a_blocked_cross_core_wait():
    """SIGINT to a process blocked in a cross-core wait: KeyboardInterrupt, promptly, clean."""
    import json
    import os
    import signal
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                             text=True, env=dict(os.environ))
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        t0 = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=20)
        elapsed = time.monotonic() - t0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, out
    got = json.loads(out.strip().splitlines()[-1])
    assert got["launch"] == "KeyboardInterrupt", got
    name, err, report = got["cause"]
    assert name == "CancelledError" and err == errno.EINTR, got
    assert "asc_core_cancel(): the run was cancelled" in report, report
    # The blocked wait ended because of the cancel, not because core 0 left.
    assert got["wait"][0] in ("CancelledError", "AscError"), got
    assert got["wait"][1] in (errno.EINTR, errno.ECANCELED), got
    assert got["threads"] == 1 and got["fds_same"] and got["after"], got
    assert elapsed < 5, elapsed


def test_a_launch_names_the_lowest_numbered_core_every_time():
    """Every core from 8 up leaves a flag set; the odd or the even cores lag in turn."""

    @asc.jit
    def leave_set(run: asc.ConstExpr[int]):
        i = asc.get_block_idx()
        if (i + run) % 2:
            time.sleep(0.002 + 0.001 * (run % 3))
        asc.set_flag(HE.MTE2_V, 0)  # the set
        if i < 8:
            asc.wait_flag(HE.MTE2_V, 0)

    lines, first = inspect.getsourcelines(test_a_launch_names_the_lowest_numbered_core_every_time)
    line = first + next(i for i, l in enumerate(lines) if "# the set" in l)
    for run in range(12):
        with pytest.raises(asc.MissingSyncError) as e:
            leave_set[16](run)
        assert e.value.report == (
            "core 8 (AIV 8):\n"
            f"missing wait: MTE2 sets MTE2_V id 0 (#1 at test_launch.py:{line}) and no wait takes it "
            "by the end of the kernel\n"), (run, e.value.report)


def test_races_of_one_pair_of_lines_print_once():
    """Four cores write the same tile of z three times from one line: one report
    line, with the cores and iterations, the tile by its offset in z."""

    @asc.jit
    def overwrite(z):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        loc = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, TILE)
        asc.duplicate(loc, 1.0, TILE)
        sync(HE.V_MTE3)
        for _ in range(3):
            asc.data_copy(z_gm[TILE:], loc, TILE)  # the copy
            asc.pipe_barrier(asc.PipeID.PIPE_MTE3)

    z = np.zeros(2 * TILE, np.float32)
    lines, first = inspect.getsourcelines(test_races_of_one_pair_of_lines_print_once)
    line = first + next(i for i, l in enumerate(lines) if "# the copy" in l)
    with pytest.raises(asc.MissingSyncError) as e:
        overwrite[4](z)
    found = [l for l in e.value.report.splitlines() if l.startswith("missing sync:")]
    assert len(found) == 1, e.value.report
    assert found[0].startswith(
        f'missing sync: core 0 (AIV 0) MTE3 writes "z_gm" at "z" [{4 * TILE}+{4 * TILE}] ('), found
    assert f"at test_launch.py:{line}) and core 1 (AIV 1) MTE3 writes it (" in found[0], found
    assert found[0].endswith(
        "no cross-core set/wait or SyncAll orders them, and 53 more like it (cores 0-3, iterations 1-3)"), found


def test_a_wrong_cross_core_mode_names_the_set():
    """The AIVs set flag 5 in mode 0 (it counts on the AIVs), the AIC waits for it."""

    @asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)
    def wrong_mode():
        if asc.get_sub_block_num() == 1:
            asc.cross_core_wait_flag(5, 2, asc.PipeID.PIPE_S)  # the wait
        else:
            asc.cross_core_set_flag(5, 0, asc.PipeID.PIPE_MTE3)  # the set

    lines, first = inspect.getsourcelines(test_a_wrong_cross_core_mode_names_the_set)
    line = first + next(i for i, l in enumerate(lines) if "# the set" in l)
    wait = first + next(i for i, l in enumerate(lines) if "# the wait" in l)
    with pytest.raises(asc.DeadlockError) as e:
        wrong_mode[1]()
    assert (f"  core 0 (AIC 0) S waits for cross-core flag 5 (#1 at test_launch.py:{wait}), "
            "which cores 0 (mode 0), 1 (mode 2), 2 (mode 2) have not set") \
        in e.value.report.splitlines(), e.value.report
    wrong = [l for l in e.value.report.splitlines() if "wrong mode" in l]
    assert wrong == [
        f"  wrong mode: cores 1 (AIV 0) and 2 (AIV 1) set cross-core flag 5 in mode 0 "
        f"(#1 at test_launch.py:{line}), which counts on cores 1-2, not on core 0 (AIC 0), "
        "which waits for it"], e.value.report

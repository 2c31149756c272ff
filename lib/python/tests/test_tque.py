# SPDX-License-Identifier: LGPL-2.1-or-later
"""TQue, TQueBind and TBuf on libasc's queues: the protocol and its checks (in the guest)."""

import errno
import inspect

import numpy as np
import pytest

import asc
import asc.lib.runtime as rt

pytestmark = pytest.mark.device

HE = asc.HardEvent
POS = asc.TPosition


def line_of(fn, text):
    """The line of this file where ``fn``'s source has ``text`` (a unique piece)."""
    lines, first = inspect.getsourcelines(fn)
    hits = [first + i for i, l in enumerate(lines) if text in l]
    assert len(hits) == 1, (text, hits)
    return hits[0]


def run(body, *args, core_num=1):
    asc.jit(body)[core_num](*args)


@asc.jit
def vadd_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                block: asc.ConstExpr[int], buffers: asc.ConstExpr[int],
                tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    offset = asc.get_block_idx() * block
    x_gm, y_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block)
    y_gm.set_global_buffer(y + offset, block)
    z_gm.set_global_buffer(z + offset, block)
    pipe = asc.TPipe()
    qx = asc.TQue(POS.VECIN, buffers)
    qy = asc.TQue(POS.VECIN, buffers)
    qz = asc.TQue(POS.VECOUT, buffers)
    pipe.init_buffer(que=qx, num=buffers, len=tile * x.dtype.sizeof())
    pipe.init_buffer(qy, buffers, tile * y.dtype.sizeof())
    pipe.init_buffer(que=qz, num=buffers, len=tile * z.dtype.sizeof())
    for i in range(tiles):
        stage_in(i, x_gm, y_gm, qx, qy, tile)
        stage_add(z_gm, qx, qy, qz, tile)
        stage_out(i, z_gm, qz, tile)


@asc.jit
def stage_in(i: int, x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, qx: asc.TQue,
             qy: asc.TQue, tile: asc.ConstExpr[int]):
    a = qx.alloc_tensor(x_gm.dtype)
    b = qy.alloc_tensor(y_gm.dtype)
    asc.data_copy(a, x_gm[i * tile:], count=tile)
    asc.data_copy(b, y_gm[i * tile:], count=tile)
    qx.enque(a)
    qy.enque(b)


@asc.jit
def stage_add(z_gm: asc.GlobalTensor, qx: asc.TQue, qy: asc.TQue, qz: asc.TQue,
              tile: asc.ConstExpr[int]):
    a = qx.deque(z_gm.dtype)
    b = qy.deque(z_gm.dtype)
    c = qz.alloc_tensor(z_gm.dtype)
    asc.add(c, a, b, tile)
    qz.enque(c)
    qx.free_tensor(a)
    qy.free_tensor(b)


@asc.jit
def stage_out(i: int, z_gm: asc.GlobalTensor, qz: asc.TQue, tile: asc.ConstExpr[int]):
    c = qz.deque(z_gm.dtype)
    asc.data_copy(z_gm[i * tile:], c, count=tile)
    qz.free_tensor(c)


@pytest.mark.parametrize("cores,buffers", [(16, 2), (2, 1)])
def test_vadd_through_queues(cores, buffers):
    """pyasc's test_vadd, written here: 16 cores double-buffered (2 with one buffer),
    8 tiles each."""
    rng = np.random.default_rng(2025)
    x = rng.random(8192, dtype=np.float32)
    y = rng.random(8192, dtype=np.float32)
    z = np.zeros_like(x)
    tiles = 8
    block = x.size // cores
    vadd_kernel[cores, rt.current_stream()](x, y, z, block, buffers, block // tiles, tiles)
    np.testing.assert_allclose(z, x + y)


def test_tquebind_tbuf_depth_0_and_user_tags():
    """UB to UB through a TQueBind (MTE2 to MTE3), a depth-0 queue, a TBuf, tags."""
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    got = {}

    def body(x, z):
        x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        bind = asc.TQueBind(POS.VECIN, POS.VECOUT, 1)
        q0 = asc.TQue(POS.VECIN, 0)
        qo = asc.TQue(POS.VECOUT, 1)
        tmp = asc.TBuf(POS.VECCALC)
        pipe.init_buffer(bind, 1, 512)
        pipe.init_buffer(q0, 1, 512)
        pipe.init_buffer(qo, 1, 512)
        pipe.init_buffer(buf=tmp, num=1024)
        t = bind.alloc_tensor(asc.float32)
        t.set_user_tag(7)
        asc.data_copy(t, x_gm, 128)
        bind.enque(t)
        u = bind.deque(asc.float32)
        got["bind"] = (u.get_position(), u.get_length(), u.get_user_tag())
        asc.data_copy(z_gm, u, 128)
        bind.free_tensor(u)
        a = q0.alloc_tensor(asc.float32)
        asc.data_copy(a, x_gm[128:], 128)
        q0.enque(a)
        q0.deque(a)
        scratch = tmp.get(asc.float32, 128)
        half = tmp.get_with_offset(64, 512, asc.float32)
        got["tbuf"] = (scratch.get_length(), half.get_phy_addr() - scratch.get_phy_addr(),
                       tmp.alloc_tensor(asc.float32).get_length())
        asc.muls(scratch, a, 2.0, 128)
        c = qo.alloc_tensor(asc.float32)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.muls(c, scratch, 0.5, 128)
        q0.free_tensor(a)
        tmp.free_tensor(scratch)
        qo.enque(c)
        d = qo.deque(asc.float32)
        asc.data_copy(z_gm[128:], d, 128)
        qo.free_tensor(d)
        try:
            tmp.get_with_offset(8, 16, asc.float32)
        except ValueError as e:
            got["align"] = str(e)
    run(body, x, z)
    np.testing.assert_array_equal(z, x)
    assert got["bind"] == (POS.VECOUT, 512, 7)
    assert got["tbuf"] == (512, 512, 1024)
    assert got["align"] == "buf_offset must be align to 32B."


def test_parts_and_casts_of_a_queue_tensor_go_back_to_their_queue():
    x = np.arange(64, dtype=np.int32)
    z = np.zeros_like(x)

    def body(x, z):
        x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        q = asc.TQueBind(POS.VECIN, POS.VECOUT, 1)
        pipe.init_buffer(q, 1, 256)
        t = q.alloc_tensor(asc.int32)
        asc.data_copy(t, x_gm, 64)
        q.enque(t[16:])
        u = q.deque(asc.int32)
        f = u.reinterpret_cast(asc.float32)
        asc.data_copy(z_gm, u, 64)
        q.free_tensor(f)
    run(body, x, z)
    np.testing.assert_array_equal(z, x)


def queue_error(body, err, *args, cls=asc.QueueError):
    with pytest.raises(cls) as e:
        run(body, *args)
    assert e.value.errno == err, e.value.report
    return e.value.report


def test_deque_of_an_empty_queue():
    def body():
        pipe = asc.TPipe()
        in_q = asc.TQue(POS.VECIN, 2)
        pipe.init_buffer(in_q, 2, 64)
        in_q.deque(asc.float32)
    report = queue_error(body, errno.ENODATA)
    assert (f"in_q.deque(): the queue is empty: no tensor is enqueued at "
            f"test_tque.py:{line_of(body, 'in_q.deque(')}") in report, report


def test_enque_past_the_depth():
    def body():
        pipe = asc.TPipe()
        in_q = asc.TQue(POS.VECIN, 1)
        pipe.init_buffer(in_q, 2, 64)
        a = in_q.alloc_tensor(asc.float32)
        b = in_q.alloc_tensor(asc.float32)
        in_q.enque(a)
        in_q.enque(b)
    report = queue_error(body, errno.EOVERFLOW)
    assert "in_q.enque(in_q[1])" in report, report
    assert f"at test_tque.py:{line_of(body, 'in_q.enque(b)')}" in report, report


def test_free_of_a_tensor_another_queue_handed_out():
    def body():
        pipe = asc.TPipe()
        q_a = asc.TQue(POS.VECIN, 1)
        q_b = asc.TQue(POS.VECIN, 1)
        pipe.init_buffer(q_a, 1, 64)
        pipe.init_buffer(q_b, 1, 64)
        t = q_a.alloc_tensor(asc.float32)
        q_b.free_tensor(t)
    report = queue_error(body, errno.EXDEV)
    assert "q_b.free_tensor(q_a[0])" in report, report
    assert f"at test_tque.py:{line_of(body, 'q_b.free_tensor(t)')}" in report, report


def test_free_of_a_tensor_made_at_an_address():
    def body():
        pipe = asc.TPipe()
        q = asc.TQue(POS.VECIN, 1)
        pipe.init_buffer(q, 1, 64)
        q.free_tensor(asc.LocalTensor(asc.float32, POS.VECIN, 4096, 16))
    queue_error(body, errno.EXDEV)


def test_a_tensor_freed_twice():
    def body():
        pipe = asc.TPipe()
        q = asc.TQue(POS.VECOUT, 1)
        pipe.init_buffer(q, 1, 64)
        t = q.alloc_tensor(asc.float32)
        q.free_tensor(t)
        q.free_tensor(t)  # again
    report = queue_error(body, errno.ENOENT)
    assert "q.free_tensor(q[0])" in report, report
    assert f"at test_tque.py:{line_of(body, 'q.free_tensor(t)  # again')}" in report, report


def test_alloc_with_no_free_buffer():
    def body():
        pipe = asc.TPipe()
        q = asc.TQue(POS.VECIN, 2)
        pipe.init_buffer(q, 2, 64)
        q.alloc_tensor(asc.float32)
        q.alloc_tensor(asc.float32)
        q.alloc_tensor(asc.float32)
    report = queue_error(body, errno.EDEADLK)
    assert "q.alloc_tensor()" in report, report


def test_a_tensor_used_between_its_enque_and_deque_is_a_race():
    """V reads what MTE2 fills before the deque that waits for MTE2."""
    def body(x):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        pipe = asc.TPipe()
        in_q = asc.TQue(POS.VECIN, 1)
        out = asc.LocalTensor(asc.float32, POS.VECOUT, 8192, 16)
        pipe.init_buffer(in_q, 1, 64)
        t = in_q.alloc_tensor(asc.float32)
        asc.data_copy(t, x_gm, 16)
        in_q.enque(t)
        asc.muls(out, t, 2.0, 16)
        in_q.deque(asc.float32)
        in_q.free_tensor(t)
    report = queue_error(body, errno.ENOLCK, np.ones(16, np.float32), cls=asc.MissingSyncError)
    line = [l for l in report.splitlines() if "missing sync:" in l][0]
    assert '"in_q[0]"' in line, report
    assert f"muls at test_tque.py:{line_of(body, 'asc.muls(')}" in line, report


def test_tensors_left_at_the_end_of_the_kernel():
    def body():
        pipe = asc.TPipe()
        q_in = asc.TQue(POS.VECIN, 1)
        q_out = asc.TQue(POS.VECOUT, 1)
        pipe.init_buffer(q_in, 1, 64)
        pipe.init_buffer(q_out, 1, 64)
        a = q_in.alloc_tensor(asc.float32)
        q_in.enque(a)
        q_out.alloc_tensor(asc.float32)
    report = queue_error(body, errno.ENOLCK)
    assert "q_in[0] enqueued (#" in report and "and never dequeued by the end" in report, report
    assert f"at test_tque.py:{line_of(body, 'q_in.enque(a)')}" in report, report
    assert "q_out[0] allocated (#" in report and "and never freed by the end" in report, report


def test_the_pool_runs_out_with_user_ids_and_queue_ids():
    def body():
        pipe = asc.TPipe()
        q = asc.TQue(POS.VECIN, 2)
        pipe.init_buffer(q, 2, 64)
        for _ in range(7):
            pipe.alloc_event_id(HE.MTE2_V)
        a = q.alloc_tensor(asc.float32)
        b = q.alloc_tensor(asc.float32)
        q.enque(a)
        q.enque(b)
    report = queue_error(body, errno.ENOSPC, cls=asc.EventIDExhaustedError)
    assert "q.enque(q[1])" in report and "alloc_event_id(MTE2_V)" in report, report
    assert "held by queue q: the enque of q[0]" in report, report
    assert "allocated by the kernel (#" in report, report


def test_a_hand_written_id_the_queue_holds_is_refused():
    """The source article's hazard: set_flag(MTE2_V, 0) while a VECIN queue holds ID 0."""
    def body():
        pipe = asc.TPipe()
        in_queue_x = asc.TQue(POS.VECIN, 1)
        pipe.init_buffer(in_queue_x, 1, 64)
        t = in_queue_x.alloc_tensor(asc.float32)
        in_queue_x.enque(t)
        asc.set_flag(HE.MTE2_V, 0)
    report = queue_error(body, errno.EADDRINUSE, cls=asc.EventIDInUseError)
    assert ("set_flag(MTE2_V, 0): the ID is held by queue in_queue_x: the enque of "
            "in_queue_x[0]") in report, report
    assert f"at test_tque.py:{line_of(body, 'asc.set_flag(')}" in report, report


def test_construction_and_placement_errors():
    got = []

    def body():
        pipe = asc.TPipe()
        for call in (lambda: asc.TQue(POS.VECIN), lambda: asc.TBuf(),
                     lambda: pipe.init_buffer(3, 1, 64)):
            try:
                call()
            except (RuntimeError, TypeError) as e:
                got.append(str(e))
        big = asc.TQue(POS.VECOUT, 2)
        pipe.init_buffer(big, 2, 100 * 1024)
    with pytest.raises(asc.AscError) as e:
        run(body)
    assert e.value.errno == errno.ENOBUFS
    assert "init_buffer(big, 2, 102400): UB would hold 204800 bytes" in e.value.report
    assert got == ["ConstExpr[int] is required for 'depth' argument, NoneType was provided: None",
                   "ConstExpr[int] is required for 'pos' argument, NoneType was provided: None",
                   "init_buffer: a TQue, TQueBind or TBuf (que=...) or a TBuf (buf=...)"]

# SPDX-License-Identifier: LGPL-2.1-or-later
"""LocalTensor's forms and methods, and bilinear_interpolation (in the guest)."""

import numpy as np
import pytest

import asc

pytestmark = pytest.mark.device

HE = asc.HardEvent


def sync(event):
    asc.set_flag(event, 0)
    asc.wait_flag(event, 0)


def run(body, *args):
    asc.jit(body)[1](*args)


def test_length_size_position_and_their_setters():
    got = {}

    def body():
        t = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 64, 100)
        got["first"] = (t.get_position(), t.get_length(), t.get_size(), t.get_phy_addr(2))
        t.set_size(40)
        got["set_size"] = (t.get_length(), t.get_size())
        t.set_buffer_len(33)
        got["set_buffer_len"] = (t.get_length(), t.get_size())
        part = t[8:]
        got["part"] = (part.get_phy_addr(), part.get_length(), part.get_position())
        whole = asc.LocalTensor()
        got["whole"] = (whole.get_position(), whole.get_size())
        for bad in (lambda: t.set_size(10 ** 6), lambda: t.set_buffer_len(0)):
            try:
                bad()
            except ValueError as e:
                got.setdefault("errors", []).append(str(e))
        got["kept"] = t.get_length()
    run(body)
    assert got["first"] == (asc.TPosition.VECOUT, 200, 100, 68)
    assert got["set_size"] == (80, 40)
    assert got["set_buffer_len"] == (33, 16)
    assert got["part"] == (80, 17, asc.TPosition.VECOUT)
    assert got["whole"] == (asc.TPosition.VECIN, 192 * 1024 // 4)
    assert [e.split(":")[0] for e in got["errors"]] == ["set_size", "set_buffer_len"]
    assert "do not fit the 196608-byte Unified Buffer" in got["errors"][0]
    assert got["kept"] == 33


def test_reinterpret_cast_and_set_addr_with_offset_share_the_bytes():
    got = {}

    def body():
        pipe = asc.TPipe()
        f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 16)
        asc.duplicate(f, 1.0, 16)
        i = f.reinterpret_cast(asc.int32)
        h = f.reinterpret_cast(asc.int16)
        got["cast"] = (i.get_length(), i.get_size(), h.get_size(), i.get_phy_addr())
        moved = asc.LocalTensor(asc.int16, asc.TPosition.VECIN, 1024, 4)
        moved.set_addr_with_offset(i, 2)
        got["moved"] = (moved.get_phy_addr(), moved.get_length(), moved.get_position())
        ev = pipe.fetch_event_id(HE.V_S)
        asc.set_flag(HE.V_S, ev)
        asc.wait_flag(HE.V_S, ev)
        got["values"] = (i.get_value(3), h.get_value(1), moved.get_value(1))
        try:
            f.reinterpret_cast("int8")
        except RuntimeError as e:
            got["bad"] = str(e)
    run(body)
    assert got["cast"] == (64, 16, 32, 0)
    assert got["moved"] == (8, 64, asc.TPosition.VECCALC)
    one = int(np.float32(1.0).view(np.int32))
    assert got["values"] == (one, one >> 16, one >> 16)
    assert got["bad"] == "ReinterpretCast dtype must be integer or float"


def test_a_user_tag_needs_a_queue_buffer():
    got = []

    def body():
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 8)
        for call in (lambda: t.set_user_tag(3), t.get_user_tag):
            try:
                call()
            except RuntimeError as e:
                got.append(str(e))
    run(body)
    assert got == ["set_user_tag: VECIN@0 has no buffer of a TQue or TBuf to hold a tag",
                   "get_user_tag: VECIN@0 has no buffer of a TQue or TBuf to hold a tag"]


def bilinear_reference(src0, offsets, src1, mask, h_repeat, repeat_mode, dst_blk_stride,
                       v_r_offset, v_repeat, dst):
    """BilinearInterpolation written from its definition, iteration by iteration."""
    dst = dst.copy()
    blocks = src0.reshape(-1, 16)
    for v in range(v_repeat):
        acc = None
        for h in range(h_repeat):
            k = v * h_repeat + h
            picked = blocks[offsets[8 * k:8 * k + 8] // 32]
            factor = (src1[8 * k:8 * k + 8] if repeat_mode else np.repeat(src1[k], 8))
            prod = (picked * factor[:, None]).astype(np.float16)
            acc = prod if acc is None else (acc + prod).astype(np.float16)
        flat = acc.reshape(-1)
        for e in range(mask):
            b, j = divmod(e, 16)
            dst[v * v_r_offset + b * dst_blk_stride * 16 + j] = flat[e]
    return dst


@pytest.mark.parametrize("repeat_mode,dst_blk_stride,mask", [
    (False, 1, 128), (True, 2, 100), (True, 1, 17)])
def test_bilinear_interpolation(repeat_mode, dst_blk_stride, mask):
    rng = np.random.default_rng(7)
    h_repeat, v_repeat = 2, 3
    v_r_offset = 8 * 16 * dst_blk_stride
    src0 = rng.uniform(-4, 4, 64 * 16).astype(np.float16)
    offsets = (rng.permutation(64)[:8 * h_repeat * v_repeat] * 32).astype(np.uint32)
    src1 = rng.uniform(-2, 2, 8 * h_repeat * v_repeat).astype(np.float16)
    dst_len = v_repeat * v_r_offset
    z = np.full(dst_len, 9, np.float16)

    def body(a, o, b, z):
        gms = [asc.GlobalTensor() for _ in range(4)]
        for g, arr in zip(gms, (a, o, b, z)):
            g.set_global_buffer(arr)
        a_l = asc.LocalTensor(asc.half, asc.TPosition.VECIN, 0, src0.size)
        o_l = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, 4096, offsets.size)
        b_l = asc.LocalTensor(asc.half, asc.TPosition.VECIN, 8192, src1.size)
        z_l = asc.LocalTensor(asc.half, asc.TPosition.VECOUT, 16384, dst_len)
        tmp = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 32768, 1024)
        for l, g, n in ((a_l, gms[0], src0.size), (o_l, gms[1], offsets.size),
                        (b_l, gms[2], src1.size), (z_l, gms[3], dst_len)):
            asc.data_copy(l, g, n)
        sync(HE.MTE2_V)
        asc.bilinear_interpolation(z_l, a_l, o_l, b_l, mask, h_repeat, repeat_mode,
                                   dst_blk_stride, v_r_offset, v_repeat, tmp)
        sync(HE.V_MTE3)
        asc.data_copy(gms[3], z_l, dst_len)
    want = bilinear_reference(src0, offsets, src1, mask, h_repeat, repeat_mode,
                              dst_blk_stride, v_r_offset, v_repeat, z)
    run(body, src0, offsets, src1, z)
    np.testing.assert_array_equal(z, want)


def small_operands():
    """src0 (one iteration's 8 blocks), src0_offset, src1, dst, tmp of bilinear_interpolation."""
    return (asc.LocalTensor(asc.half, asc.TPosition.VECIN, 0, 256),
            asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, 1024, 8),
            asc.LocalTensor(asc.half, asc.TPosition.VECIN, 2048, 16),
            asc.LocalTensor(asc.half, asc.TPosition.VECOUT, 4096, 128),
            asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 16384, 256))


def test_bilinear_interpolation_refuses_bad_operands():
    got = []

    def body():
        a, o, b, z, t = small_operands()
        f = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 8192, 128)
        for call in (lambda: asc.bilinear_interpolation(f, a, o, b, 128, 1, False, 1, 128, 1, t),
                     lambda: asc.bilinear_interpolation(z, a, o, b, 129, 1, False, 1, 128, 1, t),
                     lambda: asc.bilinear_interpolation(z, a, o, b, 128, 2, False, 1, 128, 1, t),
                     lambda: asc.bilinear_interpolation(z, a, o, b, [1, 2], 1, False, 1, 128, 1, t)):
            try:
                call()
            except (ValueError, TypeError, NotImplementedError) as e:
                got.append(f"{type(e).__name__}: {e}")
    run(body)
    assert got[0].startswith("TypeError: bilinear_interpolation: tensors of different dtypes")
    assert got[1] == "ValueError: bilinear_interpolation: mask 129 out of range 1..128"
    assert got[2] == "ValueError: bilinear_interpolation: VECIN@1024 has 8 elements, 16 needed"
    assert got[3].startswith("NotImplementedError: bilinear_interpolation: the bit-mask form")


def test_bilinear_interpolation_offsets_are_read_on_v():
    """An offset the scalar stored (ordered by S_V) that is no block of src0."""
    def body():
        a, o, b, z, t = small_operands()
        o.set_value(0, 24)
        sync(HE.S_V)
        asc.bilinear_interpolation(z, a, o, b, 128, 1, False, 1, 128, 1, t)
    with pytest.raises(ValueError, match="^bilinear_interpolation: src0_offset 24 is not a "
                       "32-byte block of the 512 bytes of VECIN@0$"):
        run(body)

# SPDX-License-Identifier: LGPL-2.1-or-later
"""torch tensors as kernel arguments (ASC_TEST_TORCH=1, in the guest)."""

import pytest

import asc

pytestmark = [pytest.mark.device, pytest.mark.torch]

HE = asc.HardEvent


@asc.jit
def double(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 4096, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(HE.MTE2_V, 0)
    asc.wait_flag(HE.MTE2_V, 0)
    asc.add(b, a, a, n)
    asc.set_flag(HE.V_MTE3, 0)
    asc.wait_flag(HE.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_cpu_tensors_are_global_memory(dtype):
    import torch
    dt = getattr(torch, dtype)
    x = (torch.arange(256) % 50).to(dt)
    z = torch.zeros_like(x)
    double[4, asc.lib.runtime.current_stream()](x, z, 64)
    assert torch.equal(z, x + x)


def test_tensors_the_cores_cannot_read_are_refused():
    import torch
    cases = [(torch.empty(64, device="meta"), ValueError, "on device 'meta'"),
             (torch.zeros(64, 2)[:, 0], ValueError, "must be contiguous"),
             (torch.zeros(64, dtype=torch.bfloat16), TypeError, "torch dtype torch.bfloat16")]
    for x, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            double[1](x, torch.zeros(64), 64)

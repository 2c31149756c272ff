# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's module layout and launch conventions: config, streams, ConstExpr, arguments."""

import importlib

import numpy as np
import pytest

import asc
import asc.lib.runtime as rt
import asc.runtime.config as config
from asc.runtime import config as config_from


def test_modules_import_as_pyasc_names_them():
    assert config_from is config and asc.runtime.config is config
    assert rt is asc.lib.runtime and importlib.import_module("asc.lib.runtime") is rt
    assert [b.value for b in config.Backend] == ["Model", "NPU"]
    assert config.Platform("Ascend910B4-1") is config.Platform.Ascend910B4_1
    assert config.KernelType is asc.KernelType


def test_set_platform_refuses_the_npu_backend():
    with pytest.raises(RuntimeError, match="^Runtime library is not available! Backend.NPU"):
        config.set_platform(config.Backend.NPU)
    with pytest.raises(ValueError):
        config.set_platform("GPU")
    with pytest.raises(ValueError, match="device 1: the emulated device is device 0"):
        config.set_platform(config.Backend.Model, device_id=1, check=False)


def test_set_platform_without_the_device_says_what_to_do(monkeypatch):
    monkeypatch.setenv("ASC_EVENT_DEV", "/nonexistent/asc_event")
    with pytest.raises(RuntimeError, match="not available! No /nonexistent/asc_event: load"):
        config.set_platform(config.Backend.Model)
    config.set_platform("Model", config.Platform.Ascend910B2, check=False)
    assert rt.get_soc_version() == "Ascend910B2"


def test_streams():
    s = rt.current_stream()
    assert s is rt.current_stream() and s is rt.current_stream(0) and s.device_id == 0
    assert rt.current_device() == 0
    rt.synchronize()
    with pytest.raises(ValueError):
        rt.current_stream(1)


def test_launch_options_with_a_stream():
    @asc.jit
    def kernel():
        raise AssertionError("not run")
    assert callable(kernel[4, rt.current_stream()])
    assert callable(kernel[4, None])
    for bad in [(4, "stream"), (4, rt.current_stream(), 1), (), (True,)]:
        with pytest.raises(TypeError, match="^Parse user launch options failed$"):
            kernel[bad]


def test_constexpr_arguments_are_checked_before_the_launch():
    @asc.jit
    def kernel(x: asc.GlobalAddress, n: asc.ConstExpr[int], flag: asc.ConstExpr[bool]):
        raise AssertionError("not run")
    x = np.zeros(4, np.float32)
    with pytest.raises(RuntimeError, match=r"^ConstExpr\[int\] is required for 'n' argument, "
                       r"float was provided: 2.5$"):
        kernel[1](x, 2.5, True)
    with pytest.raises(RuntimeError, match=r"ConstExpr\[bool\] is required for 'flag' argument, "
                       r"int was provided: 1"):
        kernel[1](x, np.int32(4), 1)
    assert repr(asc.ConstExpr(asc.ConstExpr(3))) == "ConstExpr[int](3)"
    assert asc.ConstExpr.unwrap(asc.ConstExpr(5)) == 5 and asc.ConstExpr.unwrap(6) == 6


def test_unsupported_argument_types_are_pyasc_type_errors():
    @asc.jit
    def kernel(a):
        raise AssertionError("not run")
    for bad, name in [([1.0], "list"), ("x", "str"), (None, "NoneType")]:
        with pytest.raises(TypeError, match=f"^Argument type in JIT function is not supported: {name}$"):
            kernel[1](bad)
    with pytest.raises(ValueError, match="C-contiguous"):
        kernel[1](np.zeros((4, 4), np.float32)[:, 0])


@pytest.mark.device
def test_a_kernel_launched_on_the_stream_with_constexprs():
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)

    @asc.jit
    def scale(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
              k: asc.ConstExpr[float]):
        x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
        x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
        z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
        b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 256, n)
        asc.data_copy(a, x_gm, n)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.muls(b, a, k, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, b, n)
    config.set_platform(config.Backend.Model)
    scale[4, rt.current_stream()](x, z, 16, 0.5)
    np.testing.assert_array_equal(z, x * 0.5)


@pytest.mark.device
def test_a_sub_kernel_checks_its_constexprs():
    @asc.jit
    def sub(n: asc.ConstExpr[int]):
        return n

    @asc.jit
    def kernel():
        sub(3)
        sub(3.0)
    with pytest.raises(RuntimeError, match=r"ConstExpr\[int\] is required for 'n' argument"):
        kernel[1]()

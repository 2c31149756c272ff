# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's names, values, defaults and messages; needs no device."""

import errno
import inspect

import pytest

import asc
from asc import _libasc
from asc.enums import check_libasc


def test_hard_event_values_are_pyasc_and_libasc():
    assert len(asc.HardEvent) == 35
    assert asc.HardEvent.MTE2_MTE1 == 0 and asc.HardEvent.V_S == 22
    assert asc.HardEvent.S_MTE3 == 25 and asc.HardEvent.FIX_FIX == 34
    for ev in asc.HardEvent:
        assert _libasc.lib.asc_hard_event_name(int(ev)).decode() == ev.name
        src, dst = ev.name.split("_")
        assert _libasc.lib.asc_hard_event_src_pipe(int(ev)) == asc.PipeID["PIPE_" + src]
        assert _libasc.lib.asc_hard_event_dst_pipe(int(ev)) == asc.PipeID["PIPE_" + dst]


def test_pipe_id_values():
    assert [(p.name, int(p)) for p in asc.PipeID] == [
        ("PIPE_S", 0), ("PIPE_V", 1), ("PIPE_M", 2), ("PIPE_MTE1", 3), ("PIPE_MTE2", 4),
        ("PIPE_MTE3", 5), ("PIPE_ALL", 6), ("PIPE_MTE4", 7), ("PIPE_MTE5", 8),
        ("PIPE_V2", 9), ("PIPE_FIX", 10)]


def test_import_refuses_a_library_numbering_otherwise():
    class Renumbered:
        def asc_hard_event_name(self, ev):
            return b"V_S" if ev == 4 else _libasc.lib.asc_hard_event_name(ev)

        def asc_pipe_id_name(self, p):
            return _libasc.lib.asc_pipe_id_name(p)
    check_libasc(_libasc.lib)
    with pytest.raises(ImportError, match="HardEvent 4"):
        check_libasc(Renumbered())


def test_defaults_and_keywords():
    sig = inspect.signature
    assert sig(asc.TPipe.alloc_event_id).parameters["event"].default is asc.HardEvent.V_S
    assert sig(asc.TPipe.fetch_event_id).parameters["event"].default is asc.HardEvent.V_S
    assert list(sig(asc.TPipe.release_event_id).parameters) == ["self", "id", "event"]
    assert sig(asc.TPipe.release_event_id).parameters["event"].default is asc.HardEvent.V_S
    for fn in (asc.set_flag, asc.wait_flag):
        assert list(sig(fn).parameters) == ["event", "event_id"]
        assert sig(fn).parameters["event_id"].default == 0
    assert list(sig(asc.data_copy).parameters) == ["dst", "src", "count"]
    assert list(sig(asc.add).parameters) == ["dst", "src0", "src1", "count", "is_set_mask"]
    assert list(sig(asc.muls).parameters) == ["dst", "src", "scalar", "count", "is_set_mask"]
    assert list(sig(asc.duplicate).parameters) == ["dst", "scalar", "count"]


@pytest.mark.parametrize("call", [
    lambda: asc.set_flag(asc.HardEvent.V_S),
    lambda: asc.wait_flag(asc.HardEvent.V_S, 1),
    lambda: asc.pipe_barrier(asc.PipeID.PIPE_ALL),
    lambda: asc.TPipe(),
    lambda: asc.get_tpipe_ptr(),
    lambda: asc.get_block_idx(),
    lambda: asc.get_sub_block_idx(),
    lambda: asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_MTE3),
    lambda: asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S),
    lambda: asc.sync_all(),
])
def test_calls_outside_a_kernel_raise_pyasc_error(call):
    with pytest.raises(RuntimeError, match="cannot be called without initialization of global builder"):
        call()


def test_launch_options():
    @asc.jit
    def kernel():
        pass
    with pytest.raises(ValueError, match="^Core number should be large than 0$"):
        kernel[0]
    with pytest.raises(TypeError, match="^Parse user launch options failed$"):
        kernel["two"]
    with pytest.raises(RuntimeError, match="option names are unknown: fast"):
        asc.jit(fast=True)(lambda: None)


def test_a_missing_device_is_an_oserror_with_its_errno(monkeypatch):
    monkeypatch.setenv("ASC_EVENT_DEV", "/nonexistent/asc_event")

    @asc.jit
    def kernel():
        raise AssertionError("the kernel must not run")
    with pytest.raises(asc.AscError) as e:
        kernel[1]()
    assert isinstance(e.value, OSError) and e.value.errno == errno.ENOENT
    assert "asc_launch_run(1 cores)" in str(e.value)


def test_cross_core_names_and_kernel_types():
    sig = inspect.signature
    for fn in (asc.cross_core_set_flag, asc.cross_core_wait_flag):
        assert list(sig(fn).parameters) == ["flag_id", "mode_id", "pipe"]
        assert all(p.default is inspect.Parameter.empty for p in sig(fn).parameters.values())
    params = sig(asc.sync_all).parameters
    assert [(n, p.default) for n, p in params.items()] == [
        ("gm_workspace", None), ("ub_workspace", None), ("used_cores", 0), ("is_aiv_only", True)]
    assert [(k.name, k.value) for k in asc.KernelType] == [
        ("AIV_ONLY", 0), ("AIC_ONLY", 1), ("MIX_AIV_HARD_SYNC", 2), ("MIX_AIC_HARD_SYNC", 3),
        ("MIX_AIV_1_0", 4), ("MIX_AIC_1_0", 5), ("MIX_AIC_1_1", 6), ("MIX_AIC_1_2", 7)]
    for k in (asc.KernelType.AIV_ONLY, asc.KernelType.AIC_ONLY, asc.KernelType.MIX_AIC_1_2):
        asc.jit(kernel_type=k)(lambda: None)
    with pytest.raises(ValueError, match="MIX_AIC_1_1 is not emulated"):
        asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_1)(lambda: None)

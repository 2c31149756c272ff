# SPDX-License-Identifier: LGPL-2.1-or-later
"""Kernels on the core runtime: @jit, kernel[core_num](*args), the current core.

A kernel launched on ``core_num`` cores runs each core on a thread of its
own, the scalar of one libasc core run (asc_core_run()): its TPipe, its
pipes, each a thread, and its missing-sync detector.  The calling thread
waits for them; Ctrl-C there cancels every core's kernel: its next call
raises KeyboardInterrupt in the kernel, which ends it, and once every
core's run has ended (waits already blocking end when their flag comes)
the launch raises KeyboardInterrupt.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import signal
import threading
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from . import _libasc
from .enums import PipeID
from .errors import AscError, error

_lib = _libasc.lib
_local = threading.local()

#: Work issued and not yet run: key -> (core, function).
_works: Dict[int, Tuple["Core", Callable[[], None]]] = {}
_keys = itertools.count(1)

#: Bytes of the Unified Buffer of each emulated core (that of Ascend 910B).
UB_SIZE = 192 * 1024


class Core:
    """One emulated AI core running one kernel: the state of its scalar."""

    def __init__(self, block_idx: int, block_num: int) -> None:
        self.block_idx = block_idx
        self.block_num = block_num
        self.ptr: Optional[int] = None
        self.tpipe = None
        self.ub = np.zeros(UB_SIZE, dtype=np.uint8)
        self.lock = threading.Lock()
        self.alive = False
        self.started = False
        self.cancelled = False
        self.kernel_exc: Optional[BaseException] = None
        self.work_exc: Optional[BaseException] = None
        self.rc = 0
        self.err = 0
        self.report: Optional[str] = None

    def check(self, rc: int, what: str) -> int:
        """Raise the AscError of a failed call (rc < 0), else return rc."""
        if rc < 0:
            raise error(ctypes.get_errno(), what)
        return rc

    def enter(self) -> None:
        """The start of every call: a cancelled run stops the kernel."""
        if self.cancelled:
            raise KeyboardInterrupt


def current_core(api: str) -> Core:
    """The core whose kernel the calling thread runs; pyasc's error outside one."""
    core = getattr(_local, "core", None)
    if core is None:
        raise RuntimeError(f"'{api}' cannot be called without initialization of global builder")
    core.enter()
    return core


@_libasc.WORK_FN
def _run_work(arg: int) -> None:
    core, fn = _works.pop(arg)
    try:
        fn()
    except BaseException as e:  # noqa: B902 - nothing may escape into C
        if core.work_exc is None:
            core.work_exc = e


Access = Tuple[np.ndarray, bool, str]


def issue(pipe: PipeID, fn: Callable[[], None], what: str,
          accesses: Iterable[Access] = ()) -> None:
    """Issue ``fn`` to the in-order queue of ``pipe``, declaring its buffers.

    Each access is (array, write, name): the bytes of the numpy array
    ``array`` (contiguous), written when ``write`` is true, else read.
    """
    core = current_core("issue")
    acc = list(accesses)
    arr = (_libasc.Access * max(len(acc), 1))()
    for i, (a, write, name) in enumerate(acc):
        if a.nbytes == 0:
            raise ValueError(f"{what}: an access of 0 bytes")
        arr[i] = _libasc.Access(a.ctypes.data, a.nbytes, 1 if write else 0, name.encode())
    key = next(_keys)
    _works[key] = (core, fn)
    rc = _lib.asc_core_issue(core.ptr, int(pipe), _run_work, key, what.encode(), arr, len(acc))
    if rc < 0:
        _works.pop(key, None)
        core.check(rc, what)


def _run_core(core: Core, fn: Callable[..., Any], args: Sequence[Any],
              attr: Optional[_libasc.CoreAttr]) -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def body(ptr: int, _arg: int) -> None:
        _local.core = core
        with core.lock:
            core.ptr = ptr
            core.alive = True
            core.started = True
        try:
            fn(*args)
        except BaseException as e:  # noqa: B902 - nothing may escape into C
            core.kernel_exc = e
        finally:
            with core.lock:
                core.alive = False
            _local.core = None

    kernel = _libasc.KERNEL_FN(body)
    report = ctypes.c_void_p()
    core.rc = _lib.asc_core_run(kernel, None, ctypes.byref(attr) if attr else None,
                                ctypes.byref(report))
    core.err = ctypes.get_errno() if core.rc < 0 else 0
    core.report = _libasc.take_report(report)
    for key in [k for k, (c, _) in _works.items() if c is core]:
        _works.pop(key, None)


def _cancel(cores: List[Core]) -> None:
    for core in cores:
        with core.lock:
            core.cancelled = True


def launch(fn: Callable[..., Any], core_num: int, args: Sequence[Any],
           attr: Optional[_libasc.CoreAttr] = None) -> None:
    """Run kernel ``fn(*args)`` on ``core_num`` emulated cores and wait."""
    from .tensor import GlobalAddress

    if getattr(_local, "core", None) is not None:
        raise RuntimeError("a kernel cannot launch a kernel")
    args = tuple(GlobalAddress(a) if isinstance(a, np.ndarray) else a for a in args)
    cores = [Core(i, core_num) for i in range(core_num)]
    threads = [threading.Thread(target=_run_core, args=(c, fn, args, attr),
                                name=f"asc-core-{c.block_idx}", daemon=True) for c in cores]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.05)
    except KeyboardInterrupt:
        _cancel(cores)
        for t in threads:
            t.join()
        raise
    name = getattr(fn, "__name__", "kernel")
    for core in cores:
        where = name if core_num == 1 else f"{name} block {core.block_idx}"
        if core.kernel_exc is not None and not isinstance(core.kernel_exc, AscError):
            raise core.kernel_exc
        if core.work_exc is not None:
            raise core.work_exc
        if core.rc < 0 and not core.started:
            raise AscError(core.err, where, core.report)
        if core.rc < 0:
            raise error(core.err, where, core.report) from core.kernel_exc
        if core.kernel_exc is not None:
            raise core.kernel_exc


class JITFunction:
    """A kernel: call ``kernel[core_num](*args)`` to run it on the core runtime.

    Called directly from inside a running kernel it is a plain function
    call (pyasc's sub-kernels, such as test_vadd_sw.py's ``compute``).
    """

    def __init__(self, fn: Callable[..., Any], **options: Any) -> None:
        unknown = set(options).difference({"unchecked", "strict_ids", "device"})
        if unknown:
            raise RuntimeError("The following option names are unknown: " + ", ".join(sorted(unknown)))
        if options.get("unchecked") and options.get("strict_ids"):
            raise ValueError("unchecked and strict_ids exclude each other")
        self.fn = fn
        self.options = options
        functools.update_wrapper(self, fn)

    def _attr(self) -> Optional[_libasc.CoreAttr]:
        if not self.options:
            return None
        dev = self.options.get("device")
        return _libasc.CoreAttr(dev.encode() if dev else None,
                                1 if self.options.get("unchecked") else 0,
                                1 if self.options.get("strict_ids") else 0)

    def __getitem__(self, launch_options: Any) -> Callable[..., None]:
        if isinstance(launch_options, tuple) and launch_options:
            core_num = launch_options[0]
        else:
            core_num = launch_options
        if not isinstance(core_num, int) or isinstance(core_num, bool):
            raise TypeError("Parse user launch options failed")
        if core_num <= 0:
            raise ValueError("Core number should be large than 0")

        def run(*args: Any) -> None:
            launch(self.fn, core_num, args, self._attr())
        return run

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        current_core(self.fn.__name__)
        return self.fn(*args, **kwargs)


def jit(fn: Optional[Callable[..., Any]] = None, **options: Any):
    """Make ``fn`` a kernel; ``@jit`` or ``@jit(strict_ids=True)``.

    Options (asc-event's, not pyasc's): ``strict_ids`` (pyasc's rule for
    IDs: a set or wait on a hand-written ID fails), ``unchecked`` (checked
    mode off), ``device`` (the device node).
    """
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


def get_block_idx() -> int:
    """The index of the core running the kernel, 0 .. get_block_num() - 1."""
    return current_core("get_block_idx").block_idx


def get_block_num() -> int:
    """The number of cores the kernel was launched on."""
    return current_core("get_block_num").block_num

# SPDX-License-Identifier: LGPL-2.1-or-later
"""Kernels on the core runtime: @jit, kernel[core_num](*args), the current core.

``kernel[core_num](*args)`` is one launch of libasc (asc_launch_run()) on
``core_num`` AI cores of the kernel's KernelType: each core runs the
kernel on a scalar thread of its own, with its TPipe joined to the
launch, its pipes, each a thread, and its missing-sync detector; the cores
meet through cross-core flags and SyncAll (sync.py).  The first error of
any core ends the launch and is raised.  The calling thread waits; Ctrl-C
there cancels the launch (asc_core_cancel()): a call blocked in a wait
(on S, cross-core, SyncAll) raises at once in its kernel, every kernel's
next call raises KeyboardInterrupt, and once the launch has ended the
launch raises KeyboardInterrupt, whose ``__cause__`` is the launch's
error (CancelledError, with the report).
"""

from __future__ import annotations

import ctypes
import functools
import inspect
import itertools
import signal
import threading
import traceback
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from . import _libasc
from .constexpr import check_constexprs, constexpr_params
from .enums import LAUNCH_KIND, KernelType, PipeID
from .errors import QUEUE_ERRNOS, AscError, UninitializedReadWarning, error
from .where import call_site

_lib = _libasc.lib
_local = threading.local()

#: Work issued and not yet run: key -> (core, function).
_works: Dict[int, Tuple["Core", Callable[[], None]]] = {}
_keys = itertools.count(1)

#: Bytes of the Unified Buffer of each emulated core (that of Ascend 910B).
UB_SIZE = 192 * 1024


class Core:
    """One emulated core of a launch running the kernel: the state of its scalar."""

    def __init__(self, ptr: int, kind: int) -> None:
        self.ptr = ptr
        #: ``ptr`` as the functions of _libasc.raw take it.
        self.cptr = ctypes.c_void_p(ptr)
        self.kind = kind
        self.block_idx = _lib.asc_core_block_idx(ptr)
        self.block_num = _lib.asc_core_block_num(ptr)
        self.sub_block_idx = _lib.asc_core_sub_block_idx(ptr)
        self.sub_block_num = _lib.asc_core_sub_block_num(ptr)
        self.tpipe = None
        #: The core's local memories (asc_core_local_mem()) by ASC_MEM_*, as bytes.
        self.mems: Dict[int, np.ndarray] = {}
        #: Its Unified Buffer; an AIC, which has none on the chip, gets one
        #: of its own here for the LocalTensors it makes at an address.
        ub = self.mem(_libasc.MEM_UB)
        self.ub = ub if ub is not None else np.zeros(UB_SIZE, dtype=np.uint8)
        self.lock = threading.Lock()
        self.alive = True
        self.cancelled = False
        self.kernel_exc: Optional[BaseException] = None
        self.work_exc: Optional[BaseException] = None
        #: The ops' arguments of libasc (ops.py), by what they were made of.
        self.ops: Dict[tuple, tuple] = {}

    def mem(self, mem: int) -> Optional[np.ndarray]:
        """Local memory ``mem`` (an ASC_MEM_* value) as bytes, or None if the core lacks it.

        The bytes are libasc's: valid while the kernel runs.
        """
        if mem not in self.mems:
            size = ctypes.c_size_t()
            addr = _lib.asc_core_local_mem(self.ptr, mem, ctypes.byref(size))
            if not addr:
                return None
            self.mems[mem] = np.ctypeslib.as_array((ctypes.c_uint8 * size.value).from_address(addr))
        return self.mems[mem]

    def check(self, rc: int, what: str, queue: bool = False) -> int:
        """Raise the AscError of a failed call (rc < 0), else return rc.

        For a call of a queue (``queue``), the errnos of its checks raise
        QueueError; those of the ID pool keep their classes.
        """
        if rc < 0:
            err = ctypes.get_errno()
            raise error(err, what, queue=queue and err in QUEUE_ERRNOS)
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


def owner_core(owner: Core, api: str, what: str) -> Core:
    """current_core(), which must be ``owner``: else RuntimeError "API: WHAT"."""
    core = current_core(api)
    if core is not owner:
        raise RuntimeError(f"{api}: {what}")
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
    ``array`` (contiguous), or (address, bytes), written when ``write`` is
    true, else read.  The call site is the kernel's line that made the
    call.
    """
    core = current_core("issue")
    acc = accesses if isinstance(accesses, (list, tuple)) else list(accesses)
    n = len(acc)
    # libasc copies the accesses before the call returns: filled field by
    # field, which costs a fifth of building a struct per access.
    arr = _access_arrays[n]() if n < len(_access_arrays) else (_libasc.Access * n)()
    for i, (a, write, name) in enumerate(acc):
        addr, nbytes = a if isinstance(a, tuple) else (a.__array_interface__["data"][0], a.nbytes)
        if nbytes == 0:
            raise ValueError(f"{what}: an access of 0 bytes")
        e = arr[i]
        e.addr = addr
        e.size = nbytes
        e.write = 1 if write else 0
        e.name = _encoded(name)
    key = next(_keys)
    _works[key] = (core, fn)
    file, line = call_site()
    rc = _lib.asc_core_issue_at(core.ptr, int(pipe), _run_work, key, _encoded(what), arr, n,
                                file, line)
    if rc < 0:
        _works.pop(key, None)
        core.check(rc, what)


#: The array types of 0 to 7 accesses (0: one element, never read).
_access_arrays = [_libasc.Access * max(n, 1) for n in range(8)]


@functools.lru_cache(maxsize=1024)
def _encoded(text: str) -> bytes:
    """``text`` as libasc takes it: the names of accesses and work repeat."""
    return text.encode()


class Launch:
    """One launch of a kernel: its cores, as they start, and its result."""

    def __init__(self, fn: Callable[..., Any], args: Sequence[Any], kind: int,
                 block_dim: int, attr: Optional[_libasc.CoreAttr]) -> None:
        self.fn = fn
        self.args = args
        self.kind = kind
        self.block_dim = block_dim
        self.attr = attr
        self.lock = threading.Lock()
        self.cores: List[Core] = []
        #: Python exceptions of the kernels and their work, in the order they came.
        self.exceptions: List[BaseException] = []
        self.rc = 0
        self.err = 0
        self.report: Optional[str] = None
        self.cancelled = False
        #: Set when asc_launch_run() has returned.
        self.done = threading.Event()

    def body(self, ptr: int, _arg: int) -> None:
        """The kernel on one core: asc_launch_run() calls it on the core's scalar."""
        core = Core(ptr, self.kind)
        with self.lock:
            self.cores.append(core)
            core.cancelled = self.cancelled
        _local.core = core
        try:
            self.declare_arrays(core)
            self.fn(*self.args)
        except BaseException as e:  # noqa: B902 - nothing may escape into C
            core.kernel_exc = e
            if not isinstance(e, AscError):
                with self.lock:
                    self.exceptions.append(e)
        finally:
            with core.lock:
                core.alive = False
            _local.core = None

    def declare_arrays(self, core: Core) -> None:
        """Each array argument, named after its parameter, for the memory checks."""
        from .tensor import GlobalAddress

        try:
            names = list(inspect.signature(self.fn).parameters)
        except (TypeError, ValueError):
            names = []
        for i, a in enumerate(self.args):
            if isinstance(a, GlobalAddress) and a.array.nbytes:
                a.name = names[i] if i < len(names) else f"arg{i}"
                core.check(_lib.asc_core_gm_buffer(core.ptr, a.array.ctypes.data, a.array.nbytes,
                                                   a.name.encode()), "asc_core_gm_buffer")

    def run(self) -> None:
        """asc_launch_run(), on a thread where SIGINT is blocked."""
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            kernel = _libasc.KERNEL_FN(self.body)
            report = ctypes.c_void_p()
            self.rc = _lib.asc_launch_run(kernel, None, self.kind, self.block_dim,
                                          ctypes.byref(self.attr) if self.attr else None,
                                          ctypes.byref(report))
            self.err = ctypes.get_errno() if self.rc < 0 else 0
            self.report = _libasc.take_report(report)
            ptrs = {c.ptr for c in self.cores}
            for c in self.cores:
                c.mems.clear()
            for key in [k for k, (c, _) in _works.items() if c.ptr in ptrs]:
                _works.pop(key, None)
        finally:
            self.done.set()

    def cancel(self) -> None:
        """Ctrl-C: end the launch (asc_core_cancel()), then every kernel's
        next call raises KeyboardInterrupt.

        asc_core_cancel() of a core whose kernel still runs (under its
        lock, so that it cannot return meanwhile) makes EINTR the launch's
        first error and ends every wait blocked in the driver, on every
        core: the blocked call raises in its kernel.
        """
        with self.lock:
            self.cancelled = True
            cores = list(self.cores)
        for core in cores:
            with core.lock:
                if core.alive:
                    _lib.asc_core_cancel(core.ptr)
                core.cancelled = True


def _forget_locals(e: Optional[BaseException]) -> None:
    """Clear the frames of a core's exception (and of its causes): their
    locals may hold views of local memory, which is gone with the launch."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        traceback.clear_frames(e.__traceback__)
        e = e.__cause__ or e.__context__


def launch(fn: Callable[..., Any], core_num: int, args: Sequence[Any],
           attr: Optional[_libasc.CoreAttr] = None, kind: int = LAUNCH_KIND[KernelType.AIV_ONLY]) -> None:
    """Run kernel ``fn(*args)`` on one launch of ``core_num`` AI cores and wait."""
    from .args import kernel_args

    if getattr(_local, "core", None) is not None:
        raise RuntimeError("a kernel cannot launch a kernel")
    args = kernel_args(args)
    run = Launch(fn, args, kind, core_num, attr)
    thread = threading.Thread(target=run.run, name="asc-launch", daemon=True)
    thread.start()
    # Waited for through an Event: a Thread.join() that KeyboardInterrupt
    # interrupted may return at once afterwards (CPython 3.11).
    try:
        while not run.done.wait(0.05):
            pass
    except KeyboardInterrupt as e:
        run.cancel()
        run.done.wait()
        thread.join()
        if run.rc < 0:
            raise e from error(run.err, getattr(fn, "__name__", "kernel"), run.report)
        raise
    for core in run.cores:
        if core.work_exc is not None:
            run.exceptions.append(core.work_exc)
        for e in (core.kernel_exc, core.work_exc):
            _forget_locals(e)
    name = getattr(fn, "__name__", "kernel")
    first = next((c.kernel_exc for c in run.cores if c.kernel_exc is not None), None)
    if run.exceptions:
        raise run.exceptions[0]
    if run.rc < 0 and not run.cores:
        raise AscError(run.err, f"{name}: asc_launch_run({core_num} cores)", run.report)
    if run.rc < 0:
        raise error(run.err, name, run.report) from first
    if first is not None:
        raise first
    if run.report:
        warnings.warn(UninitializedReadWarning(f"{name}: the memory checks warn:\n" + run.report.rstrip("\n")),
                      stacklevel=3)


class JITFunction:
    """A kernel: call ``kernel[core_num](*args)`` (or ``kernel[core_num, stream]``,
    pyasc's form: a stream of asc.lib.runtime) to run it on the core runtime.

    Called directly from inside a running kernel it is a plain function
    call (pyasc's sub-kernels, such as test_vadd_sw.py's ``compute``).
    """

    def __init__(self, fn: Callable[..., Any], **options: Any) -> None:
        unknown = set(options).difference({"unchecked", "strict_ids", "device", "kernel_type"})
        if unknown:
            raise RuntimeError("The following option names are unknown: " + ", ".join(sorted(unknown)))
        if options.get("unchecked") and options.get("strict_ids"):
            raise ValueError("unchecked and strict_ids exclude each other")
        kernel_type = options.get("kernel_type")
        if kernel_type is not None:
            kernel_type = KernelType(kernel_type)
            if kernel_type not in LAUNCH_KIND:
                raise ValueError(f"kernel type {kernel_type.name} is not emulated: "
                                 "AIV_ONLY, AIC_ONLY and MIX_AIC_1_2 are")
        self.kind = LAUNCH_KIND[KernelType.AIV_ONLY if kernel_type is None else kernel_type]
        self.fn = fn
        self.options = options
        self.constexprs = constexpr_params(fn)
        functools.update_wrapper(self, fn)

    def _attr(self) -> Optional[_libasc.CoreAttr]:
        if not set(self.options).difference({"kernel_type"}):
            return None
        dev = self.options.get("device")
        return _libasc.CoreAttr(dev.encode() if dev else None,
                                1 if self.options.get("unchecked") else 0,
                                1 if self.options.get("strict_ids") else 0)

    def __getitem__(self, launch_options: Any) -> Callable[..., None]:
        """``kernel[core_num]`` or ``kernel[core_num, stream]``: the launch to call."""
        from .device import Stream

        opts = launch_options if isinstance(launch_options, tuple) else (launch_options,)
        core_num = opts[0] if opts else None
        stream = opts[1] if len(opts) > 1 else None
        if (len(opts) not in (1, 2) or not isinstance(core_num, int) or isinstance(core_num, bool)
                or not (stream is None or isinstance(stream, Stream))):
            raise TypeError("Parse user launch options failed")
        if core_num <= 0:
            raise ValueError("Core number should be large than 0")

        def run(*args: Any) -> None:
            check_constexprs(self.constexprs, args, {})
            launch(self.fn, core_num, args, self._attr(), self.kind)
        return run

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        current_core(self.fn.__name__)
        check_constexprs(self.constexprs, args, kwargs)
        return self.fn(*args, **kwargs)


def jit(fn: Optional[Callable[..., Any]] = None, **options: Any):
    """Make ``fn`` a kernel; ``@jit`` or ``@jit(strict_ids=True)``.

    Options: pyasc's ``kernel_type`` (a :class:`KernelType`: the cores of
    a launch, AIV_ONLY when not given); asc-event's ``strict_ids`` (pyasc's
    rule for IDs: a set or wait on a hand-written ID fails), ``unchecked``
    (checked mode off), ``device`` (the device node).
    """
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


def get_block_idx() -> int:
    """GetBlockIdx(): the index of the core running the kernel.

    0 .. get_block_num() - 1 on every core of an AIV_ONLY or AIC_ONLY
    launch and on the AICs of a MIX_AIC_1_2 one; on its AIVs
    2 * AI core + get_sub_block_idx().
    """
    return current_core("get_block_idx").block_idx


def get_block_num() -> int:
    """GetBlockNum(): the number of AI cores the kernel was launched on."""
    return current_core("get_block_num").block_num


def get_sub_block_idx() -> int:
    """GetSubBlockIdx(): which of its AI core's two AIVs runs the kernel (0 or 1).

    0 on any core but an AIV of a MIX_AIC_1_2 launch.
    """
    return current_core("get_sub_block_idx").sub_block_idx


def get_sub_block_num() -> int:
    """GetSubBlockNum(): 2 on an AIV of a MIX_AIC_1_2 launch, 1 on any other core."""
    return current_core("get_sub_block_num").sub_block_num

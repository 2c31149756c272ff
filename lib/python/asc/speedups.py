# SPDX-License-Identifier: LGPL-2.1-or-later
"""The C calls of the package (asc._speedups, lib/python/asc_speedups.c).

A Python kernel's set_flag, wait_flag, pipe_barrier and the issue of
libasc's ops are made in C, with the same checks and errors as their
Python code in sync.py and ops.py, which runs where the module is not
there.  It is looked for as ``asc._speedups`` (an install puts it in the
package), then next to the libasc the package loaded (``python/`` beside
build/lib/libasc.so.1 in a source tree), for this interpreter's
EXT_SUFFIX.  ASC_NO_SPEEDUPS=1 leaves it out.  The module is bound to the
libasc of asc._libasc: one library in the process, whichever ASC_LIBASC
names.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import os
import sysconfig
from types import ModuleType
from typing import Optional

from . import _libasc, errors, runtime, where
from .enums import HardEvent, PipeID

#: libasc's functions the C calls make.
FUNCTIONS = ("asc_core_set_flag_at", "asc_core_wait_flag_at", "asc_core_pipe_barrier_at",
             "asc_core_issue_op_at")


def path() -> str:
    """Where the module of a source tree is: next to its libasc."""
    name = "_speedups" + sysconfig.get_config_var("EXT_SUFFIX")
    return os.path.join(os.path.dirname(os.path.abspath(_libasc.path)), "python", name)


def _find() -> Optional[ModuleType]:
    try:
        from . import _speedups  # pylint: disable=import-outside-toplevel
        return _speedups
    except ImportError:
        pass
    where_ = path()
    if not os.path.exists(where_):
        return None
    loader = importlib.machinery.ExtensionFileLoader("asc._speedups", where_)
    spec = importlib.util.spec_from_file_location("asc._speedups", where_, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def _load() -> Optional[ModuleType]:
    if os.environ.get("ASC_NO_SPEEDUPS"):
        return None
    mod = _find()
    if mod is None:
        return None
    fns = {name: ctypes.cast(getattr(_libasc.raw, name), ctypes.c_void_p).value
           for name in FUNCTIONS}
    mod.bind(runtime._local, runtime.current_core, HardEvent, PipeID, where._files,
             where._file, errors.error, fns)
    return mod


#: The bound module, or None: the package's Python code makes the calls.
module = _load()

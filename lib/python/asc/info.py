# SPDX-License-Identifier: LGPL-2.1-or-later
"""python3 -m asc.info: which libasc and which device the package found.

Prints the package's directory, the libasc it loaded and its version,
the module of its C calls (asc._speedups) or why there is none, and the
event device (ASC_EVENT_DEV, else /dev/asc_event): whether it opens,
its IDs per HardEvent and its mode.  Exits 0 when the device opens, 1
when it does not.
"""

from __future__ import annotations

import ctypes
import os
import sys

import asc
from asc import _libasc, speedups


def main() -> int:
    lib = _libasc.lib
    print(f"package: {os.path.dirname(os.path.abspath(asc.__file__))}")
    print(f"libasc: {_libasc.path} (version {_libasc.version()})")
    if speedups.module is not None:
        print(f"C calls: {speedups.module.__file__}")
    elif os.environ.get("ASC_NO_SPEEDUPS"):
        print("C calls: none (ASC_NO_SPEEDUPS is set)")
    else:
        print(f"C calls: none (no asc._speedups, nor {speedups.path()})")
    dev = os.environ.get("ASC_EVENT_DEV") or "/dev/asc_event"
    pipe = lib.asc_pipe_open(dev.encode())
    if not pipe:
        err = ctypes.get_errno()
        print(f"device: {dev}: cannot open: {os.strerror(err)}")
        return 1
    try:
        mode = lib.asc_pipe_mode(pipe)
        names = ["checked" if mode & 1 else "unchecked"] + (["strict IDs"] if mode & 2 else [])
        print(f"device: {dev}: event IDs per HardEvent {lib.asc_event_ids(pipe)}, "
              f"mode {', '.join(names)}")
    finally:
        lib.asc_pipe_close(pipe)
    return 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where in the kernel a call was made: the line and the names it assigns.

Errors and the detector's reports name the kernel's own line (``add.py:52``),
the first frame of the calling stack that is not this package's, and the
variable a queue or a tensor was assigned to (``in_queue_x``,
``x_local``), read from that line's source.
"""

from __future__ import annotations

import linecache
import os
import re
import sys
from types import FrameType
from typing import Optional

_ASSIGNED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")


def _ours(frame: FrameType) -> bool:
    name = frame.f_globals.get("__name__", "")
    return name == "asc" or name.startswith("asc.")


def kernel_frame() -> Optional[FrameType]:
    """The innermost frame of the calling stack outside this package."""
    frame = sys._getframe(1)
    while frame is not None and _ours(frame):
        frame = frame.f_back
    return frame


def site(frame: Optional[FrameType] = None) -> str:
    """``file.py:LINE`` of ``frame`` (default: the kernel's frame), or ``?``."""
    frame = frame or kernel_frame()
    if frame is None:
        return "?"
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


def assigned_name(frame: Optional[FrameType] = None) -> Optional[str]:
    """The name the line of ``frame`` assigns to (``x_local = ...``), or None."""
    frame = frame or kernel_frame()
    if frame is None:
        return None
    m = _ASSIGNED.match(linecache.getline(frame.f_code.co_filename, frame.f_lineno))
    return m.group(1) if m else None

# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where in the kernel a call was made: the line and the name it assigns.

libasc's reports name the kernel's own line (``#5 add at add.py:52``): the
first frame of the calling stack that is not this package's, passed to
the _at variant of each call.  A queue is named after the variable it is
assigned to (``in_queue_x = asc.TQue(...)``), read from that line's
source.
"""

from __future__ import annotations

import linecache
import re
import sys
from types import CodeType, FrameType
from typing import Dict, Optional, Tuple

_ASSIGNED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=(?!=)")


#: Per code object: None when it is this package's, else its file's name as bytes.
_files: Dict[CodeType, Optional[bytes]] = {}


def _file(frame: FrameType) -> Optional[bytes]:
    """None for a frame of this package, else its file's name (cached per code)."""
    code = frame.f_code
    try:
        return _files[code]
    except KeyError:
        pass
    name = frame.f_globals.get("__name__", "")
    ours = name == "asc" or name.startswith("asc.")
    _files[code] = file = None if ours else code.co_filename.encode()
    return file


def kernel_frame() -> Optional[FrameType]:
    """The innermost frame of the calling stack outside this package."""
    frame = sys._getframe(1)
    while frame is not None and _file(frame) is None:
        frame = frame.f_back
    return frame


def assigned_name(frame: Optional[FrameType] = None) -> Optional[str]:
    """The name the line of ``frame`` assigns to (``x_local = ...``), or None."""
    frame = frame or kernel_frame()
    if frame is None:
        return None
    m = _ASSIGNED.match(linecache.getline(frame.f_code.co_filename, frame.f_lineno))
    return m.group(1) if m else None


def call_site() -> Tuple[Optional[bytes], int]:
    """(file, line) of the kernel's frame for libasc's _at calls; (None, 0) if none."""
    frame = sys._getframe(1)
    files = _files
    while frame is not None:
        # _file(), its cache looked up here: a call per frame costs more.
        code = frame.f_code
        file = files.get(code, _UNSEEN)
        if file is _UNSEEN:
            file = _file(frame)
        if file is not None:
            # f_lineno reads the code's line table from its start each time.
            at = (code, frame.f_lasti)
            line = _lines.get(at)
            if line is None:
                if len(_lines) >= _LINES_KEPT:
                    _lines.clear()
                line = _lines[at] = frame.f_lineno
            return file, line
        frame = frame.f_back
    return None, 0


_UNSEEN = object()
#: The line of each (code, instruction) of a kernel's frame seen by call_site().
_lines: Dict[Tuple[CodeType, int], int] = {}
_LINES_KEPT = 65536

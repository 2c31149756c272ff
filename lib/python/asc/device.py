# SPDX-License-Identifier: LGPL-2.1-or-later
"""The device and its streams: pyasc's ``asc.lib.runtime``.

The device is the event device of the emulated AI cores (ASC_EVENT_DEV,
else /dev/asc_event), device 0 and the only one.  A kernel launch
``kernel[core_num, stream](...)`` runs on a stream and returns once it has
run, as pyasc's launcher synchronizes after every launch; so the launches
on a stream run in order and synchronize() has nothing to wait for.
"""

from __future__ import annotations

import os
from typing import Dict, Optional

#: The SoC the kernels are launched for (config.set_platform()).
_soc_version: Optional[str] = None
_device_id = 0


def device_path() -> str:
    """The event device's node: ASC_EVENT_DEV, else /dev/asc_event."""
    return os.environ.get("ASC_EVENT_DEV") or "/dev/asc_event"


class Stream:
    """A stream of the device: kernel launches run on it in order."""

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = _check_device(device_id)

    def __repr__(self) -> str:
        return f"Stream(device_id={self.device_id})"


_streams: Dict[int, Stream] = {}


def _check_device(device_id: Optional[int]) -> int:
    if device_id is None:
        return _device_id
    if not isinstance(device_id, int) or device_id != 0:
        raise ValueError(f"device {device_id!r}: the emulated device is device 0, the only one")
    return device_id


def current_stream(device_id: Optional[int] = None) -> Stream:
    """The default stream of the device (of ``device_id``, 0)."""
    device_id = _check_device(device_id)
    if device_id not in _streams:
        _streams[device_id] = Stream(device_id)
    return _streams[device_id]


def synchronize() -> None:
    """Wait for the launches on the current stream: each has run when it returned."""


def current_device() -> int:
    """The device the kernels are launched on: 0."""
    return _device_id


def set_device(device_id: int) -> None:
    """Launch on device ``device_id``; only 0 exists (ValueError otherwise)."""
    _check_device(device_id)


def is_available() -> bool:
    """Whether the event device's node exists (the module is loaded)."""
    return os.path.exists(device_path())


def set_soc_version(soc_version: str) -> None:
    """Record the SoC the kernels are launched for (its name, as Platform's values)."""
    global _soc_version
    _soc_version = str(soc_version)


def get_soc_version() -> Optional[str]:
    """The SoC set_soc_version() recorded, or None."""
    return _soc_version

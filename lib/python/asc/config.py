# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's ``asc.runtime.config``: the backend and platform kernels run on.

``Backend.Model`` runs kernels on this machine, on the emulated AI cores of
the event device; ``Backend.NPU`` (an Ascend card) does not exist here and
set_platform() refuses it.  The platforms are pyasc's; the emulated core is
the same on each (a 192 KiB Unified Buffer).
"""

from __future__ import annotations

from enum import Enum
from typing import Optional, Union

from . import device
from .enums import KernelType

__all__ = ["Backend", "KernelType", "Platform", "set_platform"]


class Backend(Enum):
    """Where kernels run: Model (here, emulated) or NPU (an Ascend card)."""

    Model = "Model"
    NPU = "NPU"


class Platform(Enum):
    """The SoC a kernel is launched for, by pyasc's names."""

    Ascend910B1 = "Ascend910B1"
    Ascend910B2 = "Ascend910B2"
    Ascend910B2C = "Ascend910B2C"
    Ascend910B3 = "Ascend910B3"
    Ascend910B4 = "Ascend910B4"
    Ascend910B4_1 = "Ascend910B4-1"
    Ascend910_9362 = "Ascend910_9362"
    Ascend910_9372 = "Ascend910_9372"
    Ascend910_9381 = "Ascend910_9381"
    Ascend910_9382 = "Ascend910_9382"
    Ascend910_9391 = "Ascend910_9391"
    Ascend910_9392 = "Ascend910_9392"


def set_platform(backend: Union[Backend, str], soc_version: Optional[Platform] = None,
                 device_id: Optional[int] = None, check: bool = True) -> None:
    """Run the next launches on ``backend`` for ``soc_version`` (Ascend910B1).

    ``Backend.NPU`` raises RuntimeError: there is no Ascend card.  With
    ``check``, a missing event device raises pyasc's RuntimeError ("Runtime
    library is not available!") with what to do.
    """
    backend = Backend(backend)
    if backend == Backend.NPU:
        raise RuntimeError("Runtime library is not available! Backend.NPU needs an Ascend card; "
                           "asc-event runs kernels with Backend.Model")
    soc_version = Platform(soc_version) if soc_version is not None else Platform.Ascend910B1
    if device_id is not None:
        device.set_device(device_id)
    if check and not device.is_available():
        raise RuntimeError(f"Runtime library is not available! No {device.device_path()}: "
                           "load the asc_event module (modprobe asc_event)")
    device.set_soc_version(soc_version.value)

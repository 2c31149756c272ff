# SPDX-License-Identifier: LGPL-2.1-or-later
"""A kernel's arguments at its launch: numpy arrays, torch tensors, scalars.

An array or a CPU torch tensor becomes a :class:`GlobalAddress` over its
own memory (no copy: what the kernel writes is in the caller's array);
bool, int, float and numpy scalars pass as they are; anything else raises
pyasc's TypeError.  torch is never imported here: a tensor can only come
from a program that imported it.
"""

from __future__ import annotations

import sys
from typing import Any, Tuple

import numpy as np

from .tensor import GlobalAddress


def _torch_array(t: Any) -> np.ndarray:
    """The numpy view of CPU torch tensor ``t``, sharing its memory."""
    if t.device.type != "cpu":
        raise ValueError(f"a torch tensor on device '{t.device}': the emulated cores read "
                         "host memory, so kernel arguments are CPU tensors (Backend.Model)")
    if not t.is_contiguous():
        raise ValueError("a kernel's tensor arguments must be contiguous")
    try:
        return t.detach().numpy()
    except TypeError as e:
        raise TypeError(f"torch dtype {t.dtype} has no numpy dtype: not emulated") from e


def kernel_arg(value: Any) -> Any:
    """What kernel parameter ``value`` is inside the kernel."""
    if isinstance(value, (bool, int, float, np.generic)):
        return value
    if isinstance(value, np.ndarray):
        return GlobalAddress(value)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return GlobalAddress(_torch_array(value))
    raise TypeError(f"Argument type in JIT function is not supported: {value.__class__.__name__}")


def kernel_args(args: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """kernel_arg() of each argument of a launch."""
    return tuple(kernel_arg(a) for a in args)

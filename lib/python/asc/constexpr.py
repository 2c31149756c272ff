# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's ConstExpr: a kernel parameter fixed when the kernel is launched.

``def kernel(x: asc.GlobalAddress, n: asc.ConstExpr[int])``: pyasc compiles
the kernel for each value of ``n``; here the kernel runs as Python, so the
annotation is a check instead: an argument of the wrong type for a
``ConstExpr[T]`` parameter raises pyasc's RuntimeError, at the launch or at
the call of a sub-kernel.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any, Callable, Generic, List, Tuple, TypeVar

import numpy as np

T = TypeVar("T")

#: The numpy scalars taken for the Python type of a ConstExpr.
_NUMPY = {bool: np.bool_, int: np.integer, float: np.floating}


class ConstExpr(Generic[T]):
    """A value known when the kernel is launched; ``ConstExpr[int]`` in annotations."""

    def __init__(self, value: Any) -> None:
        self.value = ConstExpr.unwrap(value)

    def __repr__(self) -> str:
        return f"ConstExpr[{self.value.__class__.__name__}]({self.value!r})"

    @staticmethod
    def unwrap(obj: Any) -> Any:
        """The value of a ConstExpr, or ``obj`` itself."""
        return obj.value if isinstance(obj, ConstExpr) else obj


def _types(annotation: Any) -> Tuple[type, ...]:
    if annotation is ConstExpr:
        return (bool, int, float)
    args = typing.get_args(annotation)
    return tuple(a for a in args if isinstance(a, type)) or (bool, int, float)


def constexpr_params(fn: Callable[..., Any]) -> List[Tuple[int, str, Tuple[type, ...]]]:
    """(position, name, types) of each ConstExpr parameter of ``fn``."""
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001 - annotations that do not evaluate: no check
        hints = getattr(fn, "__annotations__", {})
    out = []
    for i, name in enumerate(inspect.signature(fn).parameters):
        a = hints.get(name)
        if a is ConstExpr or typing.get_origin(a) is ConstExpr:
            out.append((i, name, _types(a)))
    return out


def check_constexprs(params: List[Tuple[int, str, Tuple[type, ...]]], args: Tuple[Any, ...],
                     kwargs: dict) -> None:
    """Raise pyasc's RuntimeError for an argument that is not of its ConstExpr's type."""
    for i, name, types in params:
        if i < len(args):
            value = args[i]
        elif name in kwargs:
            value = kwargs[name]
        else:
            continue
        value = ConstExpr.unwrap(value)
        if any(_isinstance(value, t) for t in types):
            continue
        wanted = " | ".join(t.__name__ for t in types)
        raise RuntimeError(f"ConstExpr[{wanted}] is required for '{name}' argument, "
                           f"{value.__class__.__name__} was provided: {value}")


def _isinstance(value: Any, t: type) -> bool:
    if isinstance(value, t) or (t in _NUMPY and isinstance(value, _NUMPY[t])):
        # bool is an int, but an int is no bool.
        return t is not bool or isinstance(value, (bool, np.bool_))
    return False

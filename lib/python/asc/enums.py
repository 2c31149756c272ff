# SPDX-License-Identifier: LGPL-2.1-or-later
"""pyasc's enums: HardEvent, PipeID, TPosition and KernelType, with pyasc's values.

HardEvent and PipeID are checked against libasc's own names when the
package is imported (:func:`check_libasc`): a library that numbers them
otherwise is refused.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class HardEvent(IntEnum):
    """A direction SRC_DST between two pipes: "SRC finished, tell DST"."""

    MTE2_MTE1 = 0
    MTE1_MTE2 = 1
    MTE1_M = 2
    M_MTE1 = 3
    MTE2_V = 4
    V_MTE2 = 5
    MTE3_V = 6
    V_MTE3 = 7
    M_V = 8
    V_M = 9
    V_V = 10
    MTE3_MTE1 = 11
    MTE1_MTE3 = 12
    MTE1_V = 13
    MTE2_M = 14
    M_MTE2 = 15
    V_MTE1 = 16
    M_FIX = 17
    FIX_M = 18
    MTE3_MTE2 = 19
    MTE2_MTE3 = 20
    S_V = 21
    V_S = 22
    S_MTE2 = 23
    MTE2_S = 24
    S_MTE3 = 25
    MTE3_S = 26
    MTE2_FIX = 27
    FIX_MTE2 = 28
    FIX_S = 29
    M_S = 30
    FIX_MTE3 = 31
    MTE1_FIX = 32
    FIX_MTE1 = 33
    FIX_FIX = 34


class PipeID(IntEnum):
    """The pipes of an AI core; PIPE_ALL is every pipe (pipe_barrier only).

    PIPE_MTE4, PIPE_MTE5 and PIPE_V2 are pipes of other chips: the emulated
    core has none of them.
    """

    PIPE_S = 0
    PIPE_V = 1
    PIPE_M = 2
    PIPE_MTE1 = 3
    PIPE_MTE2 = 4
    PIPE_MTE3 = 5
    PIPE_ALL = 6
    PIPE_MTE4 = 7
    PIPE_MTE5 = 8
    PIPE_V2 = 9
    PIPE_FIX = 10


class TPosition(IntEnum):
    """Logical positions of tensors (GM is global memory, the rest local)."""

    GM = 0
    A1 = 1
    A2 = 2
    B1 = 3
    B2 = 4
    C1 = 5
    C2 = 6
    CO1 = 7
    CO2 = 8
    VECIN = 9
    VECOUT = 10
    VECCALC = 11
    MAX = 12


#: The pipes the emulated core has (libasc's seven).
CORE_PIPES = (PipeID.PIPE_S, PipeID.PIPE_V, PipeID.PIPE_M, PipeID.PIPE_MTE1,
              PipeID.PIPE_MTE2, PipeID.PIPE_MTE3, PipeID.PIPE_FIX)


class KernelType(Enum):
    """pyasc's kernel types (asc.runtime.config.KernelType), for ``@jit(kernel_type=...)``.

    The cores a launch of ``kernel[n]`` gets: AIV_ONLY (the default) n
    vector cores, AIC_ONLY n cube cores, MIX_AIC_1_2 per AI core one AIC
    and two AIVs (3 * n cores).  The other types are not emulated: a
    launch of them raises ValueError.
    """

    AIV_ONLY = 0
    AIC_ONLY = 1
    MIX_AIV_HARD_SYNC = 2
    MIX_AIC_HARD_SYNC = 3
    MIX_AIV_1_0 = 4
    MIX_AIC_1_0 = 5
    MIX_AIC_1_1 = 6
    MIX_AIC_1_2 = 7


#: libasc's launch kind (enum asc_launch_kind) of each KernelType emulated.
LAUNCH_KIND = {KernelType.AIV_ONLY: 1, KernelType.AIC_ONLY: 2, KernelType.MIX_AIC_1_2: 3}


def check_libasc(lib) -> None:
    """Raise ImportError unless libasc names every HardEvent and pipe as we do."""
    for ev in HardEvent:
        got = lib.asc_hard_event_name(int(ev))
        if got is None or got.decode() != ev.name:
            raise ImportError(f"asc: libasc names HardEvent {int(ev)} {got!r}, not {ev.name}")
    if lib.asc_hard_event_name(len(HardEvent)) is not None:
        raise ImportError(f"asc: libasc has more than {len(HardEvent)} HardEvents")
    for p in PipeID:
        got = lib.asc_pipe_id_name(int(p))
        want = p.name[len("PIPE_"):] if p in CORE_PIPES else None
        if (got.decode() if got is not None else None) != want:
            raise ImportError(f"asc: libasc names pipe {int(p)} {got!r}, not {want}")

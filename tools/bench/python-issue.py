#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""asc-bench's Python subject: a kernel issuing rounds of 8 operations.

Each round is what tools/bench/python.c's C kernel issues through libasc:
data_copy GM -> UB (MTE2), set_flag and wait_flag MTE2_V, add (V),
set_flag and wait_flag V_MTE3, data_copy UB -> GM (MTE3), pipe_barrier
(PIPE_ALL), on TILE float32 elements; y is copied in once, before.  The time is taken in the kernel,
from the first operation of the timed rounds to the end of the last
barrier (one warm-up round before).  Each line of standard input is a
run: a number of rounds, for which one kernel runs; its result is
checked, then its time printed in nanoseconds on a line of its own.  It
ends at the end of its input, so that every run of a figure is made by
one interpreter, started once.  Run by asc-bench with the package of the
source tree (PYTHONPATH); usage: python-issue.py < ROUNDS-PER-LINE.
"""

import sys
import time

import numpy as np

import asc

TILE = 256
#: The kernel's timed nanoseconds.
TIMES = []


@asc.jit
def rounds(x, y, z, iters):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, TILE)
    y_gm.set_global_buffer(y, TILE)
    z_gm.set_global_buffer(z, TILE)
    pipe = asc.TPipe()
    size = TILE * x.dtype.sizeof()
    x_local = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, TILE)
    y_local = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, size, TILE)
    z_local = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 2 * size, TILE)
    in_id = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    out_id = pipe.alloc_event_id(asc.HardEvent.V_MTE3)
    # Ordered before the first add by the first round's MTE2_V.
    asc.data_copy(y_local, y_gm, TILE)
    for i in range(iters + 1):
        if i == 1:
            t0 = time.monotonic_ns()
        asc.data_copy(x_local, x_gm, TILE)
        asc.set_flag(asc.HardEvent.MTE2_V, in_id)
        asc.wait_flag(asc.HardEvent.MTE2_V, in_id)
        asc.add(z_local, x_local, y_local, TILE)
        asc.set_flag(asc.HardEvent.V_MTE3, out_id)
        asc.wait_flag(asc.HardEvent.V_MTE3, out_id)
        asc.data_copy(z_gm, z_local, TILE)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    TIMES.append(time.monotonic_ns() - t0)
    pipe.release_event_id(in_id, asc.HardEvent.MTE2_V)
    pipe.release_event_id(out_id, asc.HardEvent.V_MTE3)


def run(iters):
    """One kernel of ITERS timed rounds: its time, or None for a wrong result."""
    x = np.arange(TILE, dtype=np.float32)
    y = np.full(TILE, 2, dtype=np.float32)
    z = np.zeros(TILE, dtype=np.float32)
    TIMES.clear()
    rounds[1](x, y, z, iters)
    return TIMES[0] if np.array_equal(z, x + y) else None


def main():
    if len(sys.argv) != 1:
        print("usage: python-issue.py < ROUNDS-PER-LINE", file=sys.stderr)
        return 2
    for line in sys.stdin:
        iters = int(line)
        if iters < 1:
            print("python-issue: a run is 1 round or more, not %d" % iters, file=sys.stderr)
            return 2
        ns = run(iters)
        if ns is None:
            print("python-issue: wrong result", file=sys.stderr)
            return 1
        print(ns, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
